import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * What the bench scripts share on the command line: a bad option or value is one line on
 * stderr, `NAME bench: ...`, and exit 2; `-h`/`--help` prints the usage and exits 0.
 */
export interface BenchArgs {
  readonly values: Record<string, string | boolean | undefined>;
  /** One line on stderr and exit 2. */
  fail(message: string): never;
  /** A file or run at fault (not the command line): one line on stderr and exit 1. */
  bad(message: string): never;
  /** `--NAME` as a whole number >= 1 (a safe integer). */
  wholeNumber(name: string, text: string): number;
  /** `--NAME` as a number > 0 (decimals and an exponent allowed). */
  positiveNumber(name: string, text: string): number;
  /**
   * Fails now, before a long run, when an output file (`['out', FILE]`; undefined: not asked
   * for) could not be written: its directory is missing or not writable.
   */
  checkOutputs(files: readonly (readonly [string, string | undefined])[]): void;
  /** Writes the output files asked for (`['out', FILE, text]`), failing with the option's name. */
  writeOutputs(files: readonly (readonly [string, string | undefined, () => string])[]): void;
}

/** Parses the options (`--help` is added) of the bench script `name`. */
export function benchArgs(name: string, usage: string, options: NonNullable<ParseArgsConfig['options']>): BenchArgs {
  const fail = (message: string): never => {
    process.stderr.write(`${name} bench: ${message}\n`);
    process.exit(2);
  };
  const bad = (message: string): never => {
    process.stderr.write(`${name} bench: ${message}\n`);
    process.exit(1);
  };
  let values: Record<string, string | boolean | undefined> = {};
  try {
    ({ values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h', default: false } } }));
  } catch (e) {
    fail(`${(e as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  const wholeNumber = (opt: string, text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) fail(`--${opt} must be a whole number >= 1, not '${text}'`);
    return n;
  };
  const positiveNumber = (opt: string, text: string): number => {
    const n = Number(text);
    if (!/^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(text) || !Number.isFinite(n) || n <= 0) fail(`--${opt} must be a number > 0, not '${text}'`);
    return n;
  };
  const checkOutputs = (files: readonly (readonly [string, string | undefined])[]): void => {
    for (const [option, file] of files) {
      if (file === undefined) continue;
      try {
        if (!statSync(dirname(file)).isDirectory()) fail(`cannot write --${option} '${file}': '${dirname(file)}' is not a directory`);
        accessSync(dirname(file), constants.W_OK);
      } catch (e) {
        fail(`cannot write --${option} '${file}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
    }
  };
  const writeOutputs = (files: readonly (readonly [string, string | undefined, () => string])[]): void => {
    for (const [option, file, text] of files) {
      if (file === undefined) continue;
      try {
        writeFileSync(file, text());
      } catch (e) {
        fail(`cannot write --${option} '${file}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
    }
  };
  return { values, fail, bad, wholeNumber, positiveNumber, checkOutputs, writeOutputs };
}

/** A word as a POSIX shell reads it back: as it is when it is safe, else in single quotes. */
const shellWord = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** The command that ran the bench script `file` (`node dist/bench/FILE` and this process's arguments), for its report. */
export function benchCommand(file: string): string {
  return ['node', `dist/bench/${file}`, ...process.argv.slice(2)].map(shellWord).join(' ');
}
