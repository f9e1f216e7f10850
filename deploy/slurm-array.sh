#!/usr/bin/env bash
# A win-rate experiment as a Slurm job array: array task K runs shard K+1 of SHARDS of the
# range with `limited batch --shard K+1/SHARDS` and writes results/<name>.shard-II-of-NN.csv.
# deploy/README.md has the details (variables, resume, merge; deploy/slurm-test.sh tries it).
#
#   cd /path/to/limited && npm ci && npm run build      # once, on a login node
#   mkdir -p logs results
#   sbatch deploy/slurm-array.sh                         # 10 shards (tasks 0-9) of deals 1-1000000
#   sbatch --cpus-per-task=2 deploy/slurm-array.sh       # smaller nodes: 2 CPUs (and workers) a task
#   SHARDS=100 sbatch --array=0-99 deploy/slurm-array.sh # 100 shards
#   sbatch --array=2 deploy/slurm-array.sh               # task 2 again: shard 3 of the same 10
#   FROM=1 COUNT=10000000 OUT=results/ten-million.csv sbatch deploy/slurm-array.sh
#   # when every task has finished (or: sbatch --dependency=afterok:<jobid> --wrap '...'):
#   node dist/src/cli/main.js merge results/run.shard-*.csv --out results/run.csv
#
# The shard is SLURM_ARRAY_TASK_ID + 1 of SHARDS, whatever --array ran, so a task submitted
# again on its own resumes the same shard file. A task that was killed, preempted, requeued
# or ran out of time resumes where it stopped: on SIGTERM limited saves what it has done and
# exits 143, and each shard file holds whole rows only. The log of a requeued task grows
# (--open-mode=append): every attempt is in it. Extra arguments go to `limited batch`
# (e.g. --rules pysol).
#
#SBATCH --job-name=limited-batch
#SBATCH --array=0-9
#SBATCH --cpus-per-task=4
#SBATCH --mem-per-cpu=1G
#SBATCH --time=04:00:00
#SBATCH --output=logs/%x-%A_%a.out
#SBATCH --open-mode=append
#SBATCH --requeue
set -euo pipefail

SHARDS="${SHARDS:-10}"
FROM="${FROM:-1}"
COUNT="${COUNT:-1000000}"
OUT="${OUT:-results/run.csv}"
PRESET="${PRESET:-fast}"
MAX_NODES="${MAX_NODES:-1000000}"

die() {
  echo "slurm-array.sh: $*" >&2
  exit 2
}

[[ "$SHARDS" =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a whole number from 1, not '$SHARDS'"
task="${SLURM_ARRAY_TASK_ID:-}"
[[ "$task" =~ ^[0-9]+$ ]] ||
  die "SLURM_ARRAY_TASK_ID is not set: submit this as an array job, sbatch --array=0-$((SHARDS - 1)) $0"
((task < SHARDS)) ||
  die "array task $task is not a shard of SHARDS=$SHARDS: tasks are 0 to $((SHARDS - 1)); for more shards give SHARDS=N"

# One worker a CPU of the task (Node would count the node's cores, not the task's).
workers="${WORKERS:-${SLURM_CPUS_PER_TASK:-1}}"
# Each worker's tables of states: the task's memory shared among its workers, less 256 MiB
# each for Node itself (Slurm gives MiB).
if [[ -n "${SLURM_MEM_PER_CPU:-}" ]]; then
  memory=$((SLURM_MEM_PER_CPU * ${SLURM_CPUS_PER_TASK:-1}))
else
  memory="${SLURM_MEM_PER_NODE:-}"
fi
max_memory="${MAX_MEMORY:-}"
if [[ -z "$max_memory" && -n "$memory" ]]; then
  max_memory=$((memory / workers - 256))
  ((max_memory > 0)) || die "$memory MiB for $workers workers leaves no memory for their tables: ask for more (--mem-per-cpu) or give MAX_MEMORY"
fi

cd "${LIMITED_DIR:-${SLURM_SUBMIT_DIR:-.}}"
mkdir -p "$(dirname "$OUT")"

echo "slurm-array.sh: array task ${SLURM_ARRAY_JOB_ID:-?}_$task, attempt $((${SLURM_RESTART_COUNT:-0} + 1)), on $(hostname):" \
  "shard $((task + 1))/$SHARDS, workers $workers, --max-memory ${max_memory:-as the preset}" >&2
exec node dist/src/cli/main.js batch \
  --from "$FROM" --count "$COUNT" \
  --preset "$PRESET" --max-nodes "$MAX_NODES" \
  --workers "$workers" ${max_memory:+--max-memory "$max_memory"} \
  --shard "$((task + 1))/$SHARDS" \
  --out "$OUT" "$@"
