#!/usr/bin/env bash
# limited experiment winrate as a Slurm job array of 10 tasks that share its work
# through the file system (src/experiment/cluster.ts), printed by:
#   limited experiment winrate --count=10000 --sample=40 --long-nodes=30000000 --target-width=2 --max-hours=40 --certificates --out-dir=results/winrate/book --print-job=slurm --tasks=10 --workers=4
# Submit it from the repository (built where the nodes see it: npm ci && npm run build):
#   mkdir -p logs && sbatch job.sh
# Each task runs its shard of phase 1, then takes phase 2's deals one at a time with the others
# (a deal a worker); task 1 (array index 0) collects the files and writes the report. A task
# that dies loses its deals in flight: the others take its work once its lock is free, and
# 'sbatch --array=K job.sh' runs task K again (task 0 again writes the report if it was lost).
# Memory: 4096 MiB of tables a worker and Node's 512 MiB a task; change --cpus-per-task
# and the workers follow it.
#SBATCH --job-name=limited-winrate
#SBATCH --array=0-9
#SBATCH --cpus-per-task=4
#SBATCH --mem-per-cpu=4224M
#SBATCH --time=48:00:00
#SBATCH --output=logs/%x-%A_%a.out
#SBATCH --open-mode=append
#SBATCH --requeue
set -euo pipefail
task="${SLURM_ARRAY_TASK_ID:?submit this as an array job: sbatch --array=0-9 $0}"
cd "${LIMITED_DIR:-${SLURM_SUBMIT_DIR:-.}}"
exec node dist/src/cli/main.js experiment winrate \
  --count=10000 --sample=40 --long-nodes=30000000 --target-width=2 --max-hours=40 --certificates \
  --out-dir=results/winrate/book --task="$((task + 1))/10" --workers="${SLURM_CPUS_PER_TASK:-1}" --no-progress
