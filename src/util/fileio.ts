/**
 * Writing files safely, shared by every command that writes one: an fs error as one line naming
 * the file (`fileError`), an early check that a file can be written (`checkWritable`), an --out
 * file's directories (`prepareOut`) and a file written whole or not at all (`writeAtomic`).
 */
import {
  type Stats, accessSync, closeSync, constants, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { UserError } from '../game/index.js';

/** The temporary file an atomic write goes to before it is renamed over `file`. */
export const tmpPath = (file: string): string => `${file}.tmp`;

/** fs error codes in words (ENOENT: for a file written, its directory; for one read, `fileError` says 'no such file'). */
const FS_ERRORS: Record<string, string> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENXIO: 'it cannot be opened as a file (a socket, or a device that is not there)',
};

/** An fs error as the user reads it: a UserError that keeps the error's code. */
export class FileError extends UserError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }

  /** A full disk or a quota: the same command may go on once there is room. */
  get noRoom(): boolean {
    return this.code === 'ENOSPC' || this.code === 'EDQUOT';
  }
}

/**
 * An fs error as a one-line UserError naming the file (a FileError); anything else is rethrown.
 * `action` says what failed (`write results file`, `read deal file`).
 * A new file refused with ENOENT in a directory that exists is not a missing directory: a
 * special file system (/proc, /sys) takes no new files.
 */
export function fileError(e: unknown, action: string, file: string): never {
  const code = (e as NodeJS.ErrnoException)?.code;
  let why = code !== undefined ? FS_ERRORS[code] : undefined;
  if (code === 'ENOENT' && action.startsWith('read')) why = 'no such file';
  else if (code === 'ENOENT' && action.startsWith('write') && isDir(dirname(file)))
    why = `'${dirname(file)}' does not let files be made there (a special file system)`;
  if (why) throw new FileError(`cannot ${action} '${file}': ${why}`, code!);
  throw e;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Makes directory `dir` and its missing parents for `what` (`results file 'x/y.csv'`), or
 * throws a one-line UserError at once (`cannot write WHAT: ...`). Node's recursive mkdir spins
 * for ever where a file system refuses new entries yet says the parent exists (/proc: ENOENT for
 * /proc/nope, EEXIST for /proc), so the path is walked up to the first part that exists, which
 * must be a writable directory, and the missing parts are made one at a time.
 */
export function makeDir(dir: string, what: string): void {
  const missing: string[] = [];
  let p = resolve(dir);
  for (;;) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && dirname(p) !== p) {
        missing.unshift(p);
        p = dirname(p);
        continue;
      }
      if (code === 'ENOTDIR') {
        // A file above p: name it.
        let q = dirname(p);
        while (dirname(q) !== q && !isDir(q) && !existsSync(q)) q = dirname(q);
        throw new UserError(`cannot write ${what}: '${q}' is not a directory`);
      }
      const why = code !== undefined ? FS_ERRORS[code] : undefined;
      if (why) throw new UserError(`cannot write ${what}: ${why} ('${p}')`);
      throw e;
    }
    if (!st.isDirectory()) throw new UserError(`cannot write ${what}: '${p}' is not a directory`);
    break;
  }
  if (missing.length === 0) return;
  try {
    accessSync(p, constants.W_OK);
  } catch {
    throw new UserError(`cannot write ${what}: permission denied to make directories in '${p}'`);
  }
  for (const m of missing) {
    try {
      mkdirSync(m);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && isDir(m)) continue; // made meanwhile
      if (code === 'ENOENT') throw new UserError(`cannot write ${what}: the file system of '${dirname(m)}' does not let directories be made there`);
      const why = code !== undefined ? FS_ERRORS[code] : undefined;
      if (why) throw new UserError(`cannot write ${what}: cannot make directory '${m}': ${why}`);
      throw e;
    }
  }
}

/**
 * An --out that names a file, its directories made as bench --out makes its own: refuses a
 * name that ends with '/' or is a directory (the lock and sidecars would go inside it, named
 * '.lock' and '.meta.json'), then makes the parent directories (makeDir).
 */
export function prepareOut(file: string, what = 'results file'): void {
  let isDir = false;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    // not there (or not reachable): makeDir or checkWritable says why
  }
  if (/[/\\]$/.test(file) || isDir)
    throw new UserError(
      `--out '${file}' ${isDir ? 'is a directory' : "ends with '/'"}: --out names the ${what}, e.g. '${file.replace(/[/\\]+$/, '')}/run.csv'`,
    );
  makeDir(dirname(file), `${what} '${file}'`);
}

/**
 * Why a file that exists may not be read or written as one of limited's files, or null for a
 * regular file. Results, sidecars, locks and solutions are regular files only: a rename over a
 * device replaced it (`--out /dev/null` as root made /dev/null a regular file), and a device or
 * a FIFO read as a file never ends (/dev/zero) or waits for a writer for ever.
 */
export function notRegular(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'it is a directory';
  const kind = st.isCharacterDevice()
    ? 'a character device'
    : st.isBlockDevice()
      ? 'a block device'
      : st.isFIFO()
        ? 'a named pipe (FIFO)'
        : st.isSocket()
          ? 'a socket'
          : 'not a file';
  return `it is ${kind}, not a regular file`;
}

/** Refuses `file` when it exists and is not a regular file (`notRegular`): a one-line UserError. */
export function checkRegular(file: string, what: string, action: 'read' | 'write' = 'write'): void {
  let st: Stats;
  try {
    st = statSync(file);
  } catch {
    return; // not there (or not reachable): the write or read says why
  }
  const why = notRegular(st);
  if (why) throw new UserError(`cannot ${action} ${what} '${file}': ${why}`);
}

/**
 * Reads one of limited's own files (a results file, a sidecar, a lock), which must be a regular
 * file; null when there is none. It is opened without waiting (O_NONBLOCK: a FIFO with no writer
 * would hold the open for ever, deaf to signals) and checked on its descriptor before a byte
 * is read, so a device or a FIFO put in its place is one line, never a read without end.
 */
export function readRegular(file: string, what: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return fileError(e, `read ${what}`, file);
  }
  try {
    const why = notRegular(fstatSync(fd));
    if (why) throw new UserError(`cannot read ${what} '${file}': ${why}`);
    return readFileSync(fd, 'utf8');
  } catch (e) {
    if (e instanceof UserError) throw e;
    return fileError(e, `read ${what}`, file);
  } finally {
    closeSync(fd);
  }
}

/**
 * At most `maxBytes` bytes from `fd`, read until its end; null when it holds more. The cap is
 * kept while reading: an endless device or pipe (/dev/zero, `yes |`) stops at `maxBytes + 1`
 * bytes instead of filling the memory. A descriptor that has no data yet (a non-blocking
 * stdin) is waited on.
 */
export function readCappedSync(fd: number, maxBytes: number): Buffer | null {
  const buf = Buffer.alloc(maxBytes + 1);
  let n = 0;
  for (;;) {
    let got: number;
    try {
      got = readSync(fd, buf, n, buf.length - n, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      continue;
    }
    if (got === 0) return buf.subarray(0, n);
    n += got;
    if (n > maxBytes) return null;
  }
}

/**
 * Fails early when `file` cannot be created or appended to. When it is not there yet, a file of
 * a name of its own beside it is made and removed again: a directory may refuse new files
 * although it can be written (/proc). Never the name itself: another run, holding the file's
 * lock, may create it at that moment, and removing the name would remove that run's file (a
 * cluster's tasks check a per-deal file before they ask for its lock).
 */
export function checkWritable(file: string, what = 'results file'): void {
  const dir = dirname(file);
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`cannot write ${what} '${file}': no such directory '${dir}'`);
    if (code === 'ENOTDIR') throw new UserError(`cannot write ${what} '${file}': '${dir}' is not a directory`);
    fileError(e, `write ${what}`, file);
  }
  if (!st.isDirectory()) throw new UserError(`cannot write ${what} '${file}': '${dir}' is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    fileError(e, `write ${what}`, file);
  }
  if (existsSync(file)) {
    const why = notRegular(statSync(file));
    if (why) throw new UserError(`cannot write ${what} '${file}': ${why}`);
    try {
      accessSync(file, constants.W_OK);
    } catch (e) {
      fileError(e, `write ${what}`, file);
    }
    return;
  }
  const probe = uniqueTmp(file);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (e) {
    fileError(e, `write ${what}`, file);
  }
  try {
    unlinkSync(probe);
  } catch {
    // removed already: a run clearing its leftovers (removeTemp) takes such names too
  }
}

/** The write function of `writeFully`: fs.writeSync's form, the bytes written returned. */
export type WriteFn = (fd: number, buf: Uint8Array, offset: number, length: number) => number;

/**
 * Writes every byte of `buf`: write(2) may write fewer than asked (a nearly full disk writes
 * what fits and says how much), so it is called again for the rest. A write that makes no
 * progress is a full disk (ENOSPC), as the next call would say.
 */
export function writeFully(fd: number, buf: Uint8Array, write: WriteFn = writeSync): void {
  let off = 0;
  while (off < buf.length) {
    const n = write(fd, buf, off, buf.length - off);
    if (!(n > 0)) throw Object.assign(new Error(`write returned ${n} with ${buf.length - off} bytes left`), { code: 'ENOSPC' });
    off += n;
  }
}

/** Error codes of fsync on a directory that mean only that the file system does not flush directories. */
const NO_DIR_FSYNC = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR', 'EBADF', 'EPERM', 'EACCES']);

/** Flushes a directory, so that a rename or a new file in it is on the disk. */
export function syncDir(dir: string, file: string): void {
  let d: number | undefined;
  try {
    d = openSync(dir, 'r');
    fsyncSync(d);
  } catch (e) {
    if (!NO_DIR_FSYNC.has((e as NodeJS.ErrnoException).code ?? '')) fileError(e, 'write', file);
  } finally {
    if (d !== undefined) closeSync(d);
  }
}

export interface AtomicOptions {
  /** The write function (a test's full disk); fs.writeSync by default. */
  readonly write?: WriteFn;
  /** Called once the temporary file is whole, just before the rename: throws to keep the old file (a lock lost meanwhile). */
  readonly fence?: () => void;
}

/**
 * The temporary file of one atomic write of `file`: a name of its own (`FILE.RANDOM.tmp`), so
 * that two writers of one file (a run that stalled past its lease, and the run that took over)
 * never write or rename each other's temporary file. `removeTemp` clears leftovers of a kill.
 */
export function uniqueTmp(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes a file whole or not at all: a temporary file, every byte written and flushed, renamed
 * over the target, and the directory flushed; so the file is durable when this returns. When a
 * write fails (a full disk, a quota) the temporary file is removed and the old file is left as
 * it was; the error is a one-line UserError naming the file. A target that is not a regular
 * file (a device, a FIFO) is refused before anything is written: the rename would replace it.
 */
export function writeAtomic(file: string, text: string, what = 'file', o: AtomicOptions = {}): void {
  const write = o.write ?? writeSync;
  checkRegular(file, what);
  const tmp = uniqueTmp(file);
  try {
    // O_EXCL: a name of its own, never one someone else made (a link to a device, a FIFO).
    const fd = openSync(tmp, 'wx');
    try {
      writeFully(fd, Buffer.from(text, 'utf8'), write);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // The last check before the rename: a slow write of the temporary file (a hung file
    // server) is not followed by a rename over a file that is no longer this writer's.
    o.fence?.();
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // not made, or renamed
    }
    fileError(e, `write ${what}`, file);
  }
  syncDir(dirname(file), file);
}

/**
 * Writes several files (a merge's CSV and its two sidecars) whole, all or none: every
 * temporary file is written and flushed first, and only then are they renamed over their
 * targets. A write that fails (a full disk) removes the temporary files and leaves every
 * target as it was, so a retry is not refused for a half-written result that exists; renames
 * take no room. The error is a one-line UserError naming the file.
 */
export function writeAtomicAll(files: readonly { readonly file: string; readonly text: string; readonly what: string }[]): void {
  for (const f of files) checkRegular(f.file, f.what);
  const tmps: string[] = [];
  let at = 0;
  try {
    for (; at < files.length; at++) {
      const tmp = uniqueTmp(files[at]!.file);
      const fd = openSync(tmp, 'wx');
      tmps.push(tmp);
      try {
        writeFully(fd, Buffer.from(files[at]!.text, 'utf8'));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    for (at = 0; at < files.length; at++) renameSync(tmps[at]!, files[at]!.file);
  } catch (e) {
    for (const t of tmps) {
      try {
        unlinkSync(t);
      } catch {
        // renamed already, or not made
      }
    }
    fileError(e, `write ${files[at]?.what ?? 'file'}`, files[at]?.file ?? '');
  }
  for (const dir of new Set(files.map((f) => dirname(f.file)))) syncDir(dir, files[0]!.file);
}
