/**
 * An error in what the user gave us (a file, a flag, a deal number). The CLI prints its
 * message as one line and exits with status 2; everything else is a bug and keeps its stack.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
}

/** `1 move`, `2 moves`: a count and its noun, singular for 1 (nouns with a plain -s plural). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A piece of the user's text as an error message quotes it: control characters escaped (`\x07`,
 * `\t`) and, past `max` characters, cut with an ellipsis, so that a binary or huge file gives a
 * short, printable line.
 */
export function shown(text: string, max = 60): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  const safe = cut.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => (c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return text.length > max ? `${safe}... (${text.length} characters)` : safe;
}
