/** A command's options and help: an option's parse error named, --json, retired options, examples. */
import { type Command, Option } from 'commander';
import { UserError } from '../game/index.js';

/** Runs a parser, putting the option's name in front of its error message. */
export function prefixed<T>(option: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError) {
      // `size '3x4' is not ...` reads `--size '3x4' is not ...`.
      const word = option.replace(/^--/, '');
      throw new UserError(e.message.startsWith(word + ' ') ? `--${e.message}` : `${option}: ${e.message}`);
    }
    throw e;
  }
}

/** `--json` of a command that prints a result: `what` names the text it replaces. */
export function addJsonOption(cmd: Command, what = 'the text'): Command {
  return cmd.option('--json', `print one JSON object on stdout instead of ${what} (fields: docs/cli.md)`);
}

/**
 * Options that were renamed: each is kept as a hidden option, so that a command line with the
 * old name gets one line naming the new one (exit 2) rather than commander's bare "unknown
 * option". `renamed` maps the old flag to what to give instead: `['--deals', '--from A --count N']`.
 */
export function retireOptions(cmd: Command, renamed: readonly (readonly [string, string])[]): Command {
  for (const [flag] of renamed) cmd.addOption(new Option(`${flag} [value]`).hideHelp());
  cmd.hook('preAction', (c) => {
    const given = c.opts();
    for (const [flag, instead] of renamed) {
      const key = new Option(flag).attributeName();
      if (given[key] !== undefined) throw new UserError(`${flag} is not an option any more: give ${instead}`);
    }
  });
  return cmd;
}

/** A command's help epilogue: `Examples:` and the lines given. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}
