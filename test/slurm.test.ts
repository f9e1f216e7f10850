/**
 * deploy/slurm-array.sh on a real Slurm: deploy/slurm-test.sh brings up munge and Slurm for one
 * node in a temporary directory, runs the array with a requeue, a cancel and an `sbatch
 * --array=1` resubmission, merges, compares with one process's run; then runs experiment
 * winrate and tactics as the jobs `--print-job slurm` prints, with a task cancelled in each, and
 * compares them with one process's runs; and stops it all. Where
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
    'requeue, cancel and `sbatch --array=1` resume their shards; the merged shards equal one process; experiment winrate and tactics as printed jobs, a task cancelled, equal one process',
    async () => {
      const child = spawn('bash', [SCRIPT], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const status = await new Promise<number | null>((res) => child.on('close', res));
      expect(status, output).toBe(0);
      expect(output).toMatch(/^slurm-test: ok: the 4 merged shards hold the one-process run's 40 rows/m);
      expect(output).toMatch(/^slurm-test: experiment winrate, job \d+: 3 tasks, task 2 cancelled as it worked and its work taken by the others/m);
      expect(output).toMatch(/^slurm-test: experiment tactics, job \d+: 3 tasks, task 2 cancelled as it worked; tactics.csv is one process's/m);
      expect(output).toMatch(/^slurm-test: ok: batch shards, and experiment winrate and tactics as cluster jobs, equal one process's runs/m);
    },
    // About 2 minutes on an idle 2-core machine; the daemons and the tasks share it with other tests.
    900_000,
  );
});
