// checkWritable's probe never touches the name it checks: another run that holds the file's lock
// may create the file at that very moment (a cluster's tasks check a per-deal file before they
// ask for its lock), and removing the name would remove that run's file. The race is made here
// at the one point where it bit: another "run" renames its file into place just before the
// probe is removed.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const hooks = vi.hoisted(() => ({ beforeUnlink: null as ((path: string) => void) | null }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const unlinkSync = (path: import('node:fs').PathLike): void => {
    hooks.beforeUnlink?.(String(path));
    real.unlinkSync(path);
  };
  return { ...real, default: { ...real, unlinkSync }, unlinkSync };
});

const { checkWritable } = await import('../src/util/fileio.js');

describe('checkWritable', () => {
  it('never removes a file that another run puts at its name while it checks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limited-probe-'));
    try {
      const file = join(dir, 'phase2.deal-33.csv');
      let raced = 0;
      hooks.beforeUnlink = () => {
        // The other run's atomic write: a temporary file renamed over the name.
        if (raced++ > 0) return;
        writeFileSync(join(dir, 'other.tmp'), 'deal,verdict\n');
        renameSync(join(dir, 'other.tmp'), file);
      };
      checkWritable(file);
      hooks.beforeUnlink = null;
      expect(raced).toBe(1);
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe('deal,verdict\n');
      // Nothing else is left behind.
      expect(readdirSync(dir)).toEqual(['phase2.deal-33.csv']);
    } finally {
      hooks.beforeUnlink = null;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still refuses a directory that takes no new files, naming the file', () => {
    expect(() => checkWritable('/proc/limited-no-such.csv')).toThrow(/limited-no-such\.csv/);
  });
});
