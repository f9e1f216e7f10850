import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command, CommanderError, Option } from 'commander';

/**
 * What the bench scripts share on the command line (commander, as the CLI): a bad option or
 * value is one line on stderr, `NAME bench: ...`, and exit 2; `-h`/`--help` prints the usage
 * and exits 0; an option renamed to the CLI's name answers with one line naming the new one.
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

/** A script's options by name (`max-nodes`): a value or a switch, with its default. */
export type BenchOptions = Record<string, { readonly type: 'string' | 'boolean'; readonly default?: string | boolean }>;

/**
 * Parses the options (`--help` is added) of the bench script `name`. `retired` maps an old
 * option's name to what to give instead (`{ deals: '--count N' }`).
 */
export function benchArgs(name: string, usage: string, options: BenchOptions, retired: Readonly<Record<string, string>> = {}): BenchArgs {
  const fail = (message: string): never => {
    process.stderr.write(`${name} bench: ${message}\n`);
    process.exit(2);
  };
  const bad = (message: string): never => {
    process.stderr.write(`${name} bench: ${message}\n`);
    process.exit(1);
  };
  const cmd = new Command(`node dist/bench/${name}.js`)
    .exitOverride()
    .configureOutput({ writeOut: (t) => process.stdout.write(t), writeErr: () => {} })
    .helpOption('-h, --help')
    .allowExcessArguments(false);
  cmd.helpInformation = () => usage;
  const flag = (key: string, type: 'string' | 'boolean'): string => (type === 'string' ? `--${key} <value>` : `--${key}`);
  for (const [key, o] of Object.entries(options)) {
    const opt = new Option(flag(key, o.type));
    // commander reads --no-X as X = false (default true); the scripts read 'no-X' as a switch.
    if (o.default !== undefined && !key.startsWith('no-')) opt.default(o.default);
    cmd.addOption(opt);
  }
  for (const key of Object.keys(retired)) cmd.addOption(new Option(`--${key} [value]`).hideHelp());
  try {
    cmd.parse(process.argv.slice(2), { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help') process.exit(0);
    fail(`${e.message.replace(/^error: /, '')} (see --help)`);
  }
  const opts = cmd.opts();
  for (const [key, instead] of Object.entries(retired))
    if (opts[new Option(`--${key}`).attributeName()] !== undefined) fail(`--${key} is not an option any more: give ${instead}`);
  // Keyed by the option's name as written (`max-nodes`), as the scripts read them.
  const values: Record<string, string | boolean | undefined> = {};
  for (const key of Object.keys(options)) {
    const v = opts[new Option(`--${key}`).attributeName()] as string | boolean | undefined;
    values[key] = key.startsWith('no-') ? v === false : v;
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
