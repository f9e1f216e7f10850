/**
 * Writing files safely, shared by every command that writes one: an fs error as one line naming
 * the file (`fileError`), an early check that a file can be written (`checkWritable`), an --out
 * file's directories (`prepareOut`) and a file written whole or not at all (`writeAtomic`).
 */
import {
  accessSync, closeSync, constants, existsSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../game/index.js';
import { tmpPath } from './names.js';

const WRITE_ERRORS: Record<string, string> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
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

/** An fs error as a one-line UserError naming the file (a FileError); anything else is rethrown. */
export function fileError(e: unknown, action: string, file: string): never {
  const code = (e as NodeJS.ErrnoException)?.code;
  const why = code !== undefined ? WRITE_ERRORS[code] : undefined;
  if (why) throw new FileError(`cannot ${action} '${file}': ${why}`, code!);
  throw e;
}

/**
 * An --out that names a file, its directories made as bench --out makes its own: refuses a
 * name that ends with '/' or is a directory (the lock and sidecars would go inside it, named
 * '.lock' and '.meta.json'), then makes the parent directories. A parent that cannot be made
 * is left for checkWritable to name.
 */
export function prepareOut(file: string, what = 'results file'): void {
  let isDir = false;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    // not there (or not reachable): checkWritable says why
  }
  if (/[/\\]$/.test(file) || isDir)
    throw new UserError(
      `--out '${file}' ${isDir ? 'is a directory' : "ends with '/'"}: --out names the ${what}, e.g. '${file.replace(/[/\\]+$/, '')}/run.csv'`,
    );
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch {
    // checkWritable says why
  }
}

/** Fails early when `file` cannot be created or appended to. */
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
    if (statSync(file).isDirectory()) throw new UserError(`cannot write ${what} '${file}': it is a directory`);
    try {
      accessSync(file, constants.W_OK);
    } catch (e) {
      fileError(e, `write ${what}`, file);
    }
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

/**
 * Writes a file whole or not at all: a temporary file, every byte written and flushed, renamed
 * over the target, and the directory flushed; so the file is durable when this returns. When a
 * write fails (a full disk, a quota) the temporary file is removed and the old file is left as
 * it was; the error is a one-line UserError naming the file.
 */
export function writeAtomic(file: string, text: string, what = 'file'): void {
  const tmp = tmpPath(file);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeFully(fd, Buffer.from(text, 'utf8'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
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
