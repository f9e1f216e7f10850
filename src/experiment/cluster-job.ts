/**
 * `--print-job slurm|k8s`: the cluster job that runs an experiment's command as N tasks sharing
 * its work (cluster.ts): a Slurm job array's script, or a Kubernetes Indexed Job. The command's
 * own options go into the job as given; the job adds the task (`--task I/N` from the array
 * index, or `--tasks N` with JOB_COMPLETION_INDEX), the workers (the task's CPUs) and no
 * progress bar.
 */
import { UserError } from '../game/index.js';

export type Engine = 'slurm' | 'k8s';
export const ENGINES: readonly Engine[] = ['slurm', 'k8s'];

export interface JobRequest {
  readonly engine: Engine;
  /** `winrate` or `tactics`. */
  readonly experiment: string;
  /** The command's arguments, as given (those the job sets itself are dropped: see `jobArgs`). */
  readonly args: readonly string[];
  readonly tasks: number;
  /** Workers (CPUs) a task. */
  readonly workers: number;
  /** The most MiB of tables a worker's deal may take (the larger of the phases' caps). */
  readonly memoryMB: number;
  /** The output directory as given (a Kubernetes pod writes it under /results). */
  readonly outDir: string;
}

/** Options the job sets itself, with whether each takes a value. */
const SET_BY_JOB: Readonly<Record<string, boolean>> = {
  '--print-job': true, '--task': true, '--tasks': true, '--workers': true, '--out-dir': true, '--json': false, '--no-progress': false, '--progress': false,
};

/**
 * The command's arguments for the job: `--name=value` words (the Kubernetes manifest's form,
 * which the shell script takes too), without the options the job sets itself.
 */
export function jobArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) {
      out.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    const takesValue = eq < 0 && i + 1 < args.length && !args[i + 1]!.startsWith('--');
    const value = eq >= 0 ? a.slice(eq + 1) : takesValue ? args[++i]! : null;
    if (name in SET_BY_JOB) continue;
    out.push(value === null ? name : `${name}=${value}`);
  }
  return out;
}

/** A word for the shell: quoted when it holds anything but safe characters. */
const shell = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
/** A YAML scalar: quoted (JSON's quoting is YAML's). */
const yaml = (w: string): string => JSON.stringify(w);

/** Node itself and what the table caps leave out, MiB a task (as test/k8s.test.ts reckons it). */
export const NODE_MIB = 512;

export function clusterJob(r: JobRequest): string {
  if (!Number.isSafeInteger(r.tasks) || r.tasks < 1) throw new UserError(`--tasks must be a whole number >= 1, not ${r.tasks}`);
  const args = jobArgs(r.args);
  const name = `limited-${r.experiment}`;
  const printed = ['limited', 'experiment', r.experiment, ...args, `--out-dir=${r.outDir}`, `--print-job=${r.engine}`, `--tasks=${r.tasks}`, `--workers=${r.workers}`].map(shell).join(' ');
  if (r.engine === 'slurm') {
    const perCpu = r.memoryMB + Math.ceil(NODE_MIB / r.workers);
    return `#!/usr/bin/env bash
# limited experiment ${r.experiment} as a Slurm job array of ${r.tasks} tasks that share its work
# through the file system (src/experiment/cluster.ts), printed by:
#   ${printed}
# Submit it from the repository (built where the nodes see it: npm ci && npm run build):
#   mkdir -p logs && sbatch job.sh
# Each task runs its shard of phase 1, then takes phase 2's deals one at a time with the others
# (a deal a worker); task 1 (array index 0) collects the files and writes the report. A task
# that dies loses its deals in flight: the others take its work once its lock is free, and
# 'sbatch --array=K job.sh' runs task K again (task 0 again writes the report if it was lost).
# Memory: ${r.memoryMB} MiB of tables a worker and Node's ${NODE_MIB} MiB a task; change --cpus-per-task
# and the workers follow it.
#SBATCH --job-name=${name}
#SBATCH --array=0-${r.tasks - 1}
#SBATCH --cpus-per-task=${r.workers}
#SBATCH --mem-per-cpu=${perCpu}M
#SBATCH --time=48:00:00
#SBATCH --output=logs/%x-%A_%a.out
#SBATCH --open-mode=append
#SBATCH --requeue
set -euo pipefail
task="\${SLURM_ARRAY_TASK_ID:?submit this as an array job: sbatch --array=0-${r.tasks - 1} $0}"
cd "\${LIMITED_DIR:-\${SLURM_SUBMIT_DIR:-.}}"
exec node dist/src/cli/main.js experiment ${r.experiment} \\
  ${args.map(shell).join(' ')} \\
  --out-dir=${shell(r.outDir)} --task="$((task + 1))/${r.tasks}" --workers="\${SLURM_CPUS_PER_TASK:-1}" --no-progress
`;
  }
  const out = r.outDir.startsWith('/') ? r.outDir : `/results/${r.outDir}`;
  const limitMi = r.workers * r.memoryMB + NODE_MIB;
  const argLines = ['experiment', r.experiment, ...args, `--out-dir=${out}`, `--tasks=${r.tasks}`, '--workers=$(WORKERS)', '--no-progress'].map((a) => `            - ${yaml(a)}`).join('\n');
  return `# limited experiment ${r.experiment} as a Kubernetes Indexed Job of ${r.tasks} pods that share its
# work through the results volume (src/experiment/cluster.ts), printed by:
#   ${printed}
#   kubectl apply -f job.yaml && kubectl logs -f job/${name}
# Pod i (JOB_COMPLETION_INDEX) is task i+1 of ${r.tasks}: its shard of phase 1, then phase 2's deals one
# at a time with the other pods; pod 0 collects the files and writes the report in ${out}.
# A replaced pod resumes; the others take a dead pod's work once its lock's lease runs out.
# Memory: ${r.workers} workers x ${r.memoryMB} MiB of tables + ${NODE_MIB} MiB for Node.
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  completionMode: Indexed
  completions: ${r.tasks}
  parallelism: ${r.tasks}
  backoffLimitPerIndex: 5
  podReplacementPolicy: Failed
  podFailurePolicy:
    rules:
      - action: Ignore
        onPodConditions:
          - type: DisruptionTarget
            status: "True"
      - action: FailIndex
        onExitCodes:
          containerName: experiment
          operator: In
          values: [2, 3]
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: experiment
          image: registry.example.org/limited:0.1.0
          args:
${argLines}
          env:
            - name: WORKERS
              valueFrom:
                resourceFieldRef:
                  resource: limits.cpu
                  divisor: "1"
          resources:
            requests: { cpu: "${r.workers}", memory: ${limitMi}Mi }
            limits: { cpu: "${r.workers}", memory: ${limitMi}Mi }
          volumeMounts:
            - name: results
              mountPath: /results
      volumes:
        - name: results
          persistentVolumeClaim:
            claimName: limited-results
`;
}
