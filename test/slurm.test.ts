/**
 * deploy/slurm-array.sh on a real Slurm: deploy/slurm-test.sh brings up munge and Slurm for one
 * node in a temporary directory, runs the array with a requeue, a cancel and an `sbatch
 * --array=1` resubmission, merges, compares with one process's run, and stops it all. Where
 * Slurm is not installed (or not as root) it is skipped, saying why; deploy/README.md says how
 * to install it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-helpers.js';

const SCRIPT = join(ROOT, 'deploy', 'slurm-test.sh');

function missing(): string | null {
  for (const cmd of ['slurmctld', 'slurmd', 'munged', 'sbatch'])
    if (spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0) return `${cmd} is not installed (apt-get install slurm-wlm munge)`;
  if (process.getuid?.() !== 0) return 'not root (slurmd starts jobs as their users)';
  return null;
}

const why = missing();
if (why !== null) console.warn(`slurm.test.ts: the Slurm test is skipped: ${why}`);

describe('deploy/slurm-array.sh on a real one-node Slurm', () => {
  if (why !== null) {
    it.skip(`skipped: ${why}`, () => undefined);
    return;
  }
  it(
    'requeue, cancel and `sbatch --array=1` resume their shards; the merged shards equal one process',
    async () => {
      const child = spawn('bash', [SCRIPT], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const status = await new Promise<number | null>((res) => child.on('close', res));
      expect(status, output).toBe(0);
      expect(output).toMatch(/^slurm-test: ok: the 4 merged shards hold the one-process run's 40 rows/m);
    },
    // About 30 s on an idle 2-core machine; the daemons and four tasks share it with other tests.
    900_000,
  );
});
