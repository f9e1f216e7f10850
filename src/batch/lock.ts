/** The lock of a results file (FILE.lock): one run writes a file at a time. */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { UserError } from '../game/index.js';
import { fileError } from './fileio.js';
import { lockPath } from './names.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of a results file: refuses when another live process of this host holds it.
 * A lock left by a killed run (its process is gone), or by another host, is taken over (a
 * cluster job requeued on another node must be able to resume). Returns the release function.
 */
export function takeLock(csv: string): () => void {
  const file = lockPath(csv);
  const me = `${hostname()} ${process.pid}\n`;
  try {
    const old = readFileSync(file, 'utf8').trim().split(/\s+/);
    const pid = Number(old[1]);
    if (old[0] === hostname() && Number.isSafeInteger(pid) && pid !== process.pid && alive(pid))
      throw new UserError(`another batch (process ${pid}) is writing '${csv}': wait for it, or stop it first (its lock is ${basename(file)})`);
  } catch (e) {
    if (e instanceof UserError) throw e;
    // no lock, or unreadable: take it
  }
  try {
    writeFileSync(file, me);
  } catch (e) {
    fileError(e, 'write lock file', file);
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8') === me) unlinkSync(file);
    } catch {
      // gone already
    }
  };
}
