/**
 * The lock of a results file (FILE.lock): one run writes a file at a time, on one host or on
 * several that share a file system (cluster nodes on NFS, pods on a shared volume).
 *
 * The lock is a file made with an exclusive create (O_EXCL: atomic on a local file system and
 * on NFSv3 and later), holding the holder's host, process, start time and a random token. The
 * holder renews a lease every RENEW_SECONDS by setting the file's modification time, and checks
 * that the file is still its own before every write. A run that finds the lock held:
 *   - by a process of its own host (the host name: LIMITED_HOSTNAME, else the system's): takes
 *     it at once when that process is gone (a killed run), else refuses;
 *   - by another host: refuses while the lease is live (renewed within LEASE_SECONDS by its
 *     clock), and takes it once the lease has run out (a dead node, a replaced pod).
 * A stale lock is taken by renaming it aside (atomic; of two takers only one succeeds) and
 * creating a new one. Were a lock ever taken from a live holder (clocks that disagree by more
 * than the lease), the holder sees at its next check that the file is not its own and stops.
 */
import { closeSync, fsyncSync, linkSync, openSync, renameSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { UserError } from '../game/index.js';
import { fileError, readRegular, writeFully } from '../util/fileio.js';
import { lockPath } from './names.js';

/** A lock not renewed for this long (by the taker's clock) is another host's dead run's. */
export const LEASE_SECONDS = 60;
/** How often the holder renews its lease. */
export const RENEW_SECONDS = 10;

/** The host name a lock records: LIMITED_HOSTNAME when set (containers that share a host name; tests), else the system's. */
export function lockHost(): string {
  return process.env['LIMITED_HOSTNAME'] || hostname();
}

interface Holder {
  readonly host: string;
  readonly pid: number;
  readonly startedAt: string;
  readonly token: string;
}

/** A lock file's holder: this version's JSON, or an earlier version's `host pid`; null when unreadable (being written). */
function parseHolder(text: string): Holder | null {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const h = JSON.parse(t) as Partial<Holder>;
      if (typeof h.host === 'string' && Number.isSafeInteger(h.pid) && typeof h.token === 'string')
        return { host: h.host, pid: h.pid!, startedAt: String(h.startedAt ?? ''), token: h.token };
    } catch {
      // not whole
    }
    return null;
  }
  const [host, pid] = t.split(/\s+/);
  return host && /^\d+$/.test(pid ?? '') ? { host, pid: Number(pid), startedAt: '', token: t } : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock is held by a live run: the file is being written (a cluster's task then takes other work). */
export class LockHeldError extends UserError {}

export interface Lock {
  /** Throws a UserError when the lock is no longer this run's (taken over, or removed). */
  check(): void;
  /** Whether the lock is still this run's (`check` without the error). */
  held(): boolean;
  /** Stops the renewals and removes the lock when it is still this run's. */
  release(): void;
}

/** The lock as found: its text and how long ago it was last renewed (seconds), or null when it is gone. */
function readLock(file: string): { text: string; age: number } | null {
  let age: number;
  try {
    age = (Date.now() - statSync(file).mtimeMs) / 1000;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return fileError(e, 'read lock file', file);
  }
  const text = readRegular(file, 'lock file');
  return text === null ? null : { text, age };
}

/** The lock's text now, or null when it is gone or cannot be read as a lock (never waits on a FIFO). */
function lockText(file: string): string | null {
  try {
    return readRegular(file, 'lock file');
  } catch {
    return null;
  }
}

/** Why a lock found may not be taken (a live holder), or null when it is stale. */
function liveHolder(csv: string, file: string, found: { text: string; age: number }, me: string): string | null {
  const h = parseHolder(found.text);
  if (h && h.host === me) {
    if (h.pid === process.pid || !alive(h.pid)) return null;
    return `another batch (process ${h.pid}) is writing '${csv}': wait for it, or stop it first (its lock is ${basename(file)})`;
  }
  if (found.age >= LEASE_SECONDS) return null;
  const who = h ? `host ${h.host}, process ${h.pid}${h.startedAt ? `, since ${h.startedAt}` : ''}` : 'a run that is starting';
  return (
    `another batch (${who}) holds the lock of '${csv}' (${basename(file)}, renewed ${Math.max(0, Math.round(found.age))} s ago): ` +
    `two runs must not write one file; if that run is gone, its lock expires ${LEASE_SECONDS} s after its last renewal: run the same command again then`
  );
}

/**
 * Takes the lock of a results file, or throws a one-line UserError naming its holder. The lock
 * is renewed every RENEW_SECONDS until `release`.
 */
export function takeLock(csv: string): Lock {
  const file = lockPath(csv);
  const me = lockHost();
  const token = randomBytes(12).toString('hex');
  const text = JSON.stringify({ host: me, pid: process.pid, startedAt: new Date().toISOString(), token }) + '\n';
  for (let attempt = 0; ; attempt++) {
    if (attempt >= 10) throw new UserError(`cannot take the lock of '${csv}': other runs keep taking it (${basename(file)})`);
    let fd: number | undefined;
    try {
      fd = openSync(file, 'wx');
      writeFully(fd, Buffer.from(text, 'utf8'));
      fsyncSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        if (fd !== undefined) unlinkSync(file);
        fileError(e, 'write lock file', file);
      }
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    const found = readLock(file);
    if (!found) continue; // released meanwhile
    const live = liveHolder(csv, file, found, me);
    if (live) throw new LockHeldError(live);
    stealStale(file, found.text, token);
  }
  let lost: string | null = null;
  const check = (): void => {
    if (lost === null) {
      const now = lockText(file);
      if (now !== text) {
        const h = now !== null ? parseHolder(now) : null;
        lost = h ? `the lock of '${csv}' was taken by another run (host ${h.host}, process ${h.pid}) while this one wrote it` : `the lock of '${csv}' (${basename(file)}) was removed while this run wrote it`;
      }
    }
    if (lost !== null) throw new UserError(lost);
  };
  const timer = setInterval(() => {
    try {
      check();
      const t = new Date();
      utimesSync(file, t, t);
    } catch {
      // lost, or the renewal failed: check() says so before the next write
    }
  }, RENEW_SECONDS * 1000);
  timer.unref();
  return {
    check,
    held: () => {
      try {
        check();
        return true;
      } catch {
        return false;
      }
    },
    release: () => {
      clearInterval(timer);
      try {
        if (lockText(file) === text) unlinkSync(file);
      } catch {
        // gone already
      }
    },
  };
}

/**
 * Moves a stale lock (whose text was `seen`) out of the way. Renamed aside first, so that of two
 * takers only one moves it; had another taker put its own new lock there meanwhile, that one
 * is put back (a hard link, which never replaces a file) and the caller tries again.
 */
function stealStale(file: string, seen: string, token: string): void {
  const aside = `${file}.stale-${token}`;
  try {
    renameSync(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    fileError(e, 'take over lock file', file);
  }
  const moved = lockText(aside) ?? '';
  if (moved !== seen) {
    try {
      linkSync(aside, file);
    } catch {
      // a newer lock is there: its holder goes on, the one moved finds its lock gone
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone
  }
}
