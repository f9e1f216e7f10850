/**
 * An error in what the user gave us (a file, a flag, a deal number). The CLI prints its
 * message as one line and exits with status 2; everything else is a bug and keeps its stack.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
}
