#!/usr/bin/env bash
# A win-rate experiment as a Slurm job array: each array task runs one shard of the range
# with `limited batch`, which picks its shard from SLURM_ARRAY_TASK_ID / _COUNT / _MIN (so
# --array=0-9 and --array=1-10 both work) and writes results/<name>.shard-II-of-NN.csv.
#
#   cd /path/to/limited && npm ci && npm run build      # once, on a login node
#   mkdir -p logs results
#   sbatch deploy/slurm-array.sh                         # the defaults below
#   sbatch --array=0-99 deploy/slurm-array.sh            # 100 shards instead of 10
#   FROM=1 COUNT=10000000 OUT=results/ten-million.csv sbatch deploy/slurm-array.sh
#   # when every task has finished (or: sbatch --dependency=afterok:<jobid> --wrap '...'):
#   node dist/src/cli/main.js merge results/run.shard-*.csv --out results/run.csv
#
# Resume: a task that was killed, preempted or ran out of time is resumed by running it
# again (sbatch the same script with the same --array, or `scontrol requeue`): every shard
# file holds whole rows only, and the deals already in it are skipped. On SIGTERM (time
# limit, preemption) limited stops at once and exits 143; at most the deals in flight are
# lost. Extra arguments are passed to `limited batch` (e.g. --rules pysol).
#
#SBATCH --job-name=limited-batch
#SBATCH --array=0-9
#SBATCH --cpus-per-task=8
#SBATCH --mem-per-cpu=1G
#SBATCH --time=04:00:00
#SBATCH --output=logs/%x-%A_%a.out
#SBATCH --requeue
set -euo pipefail

FROM="${FROM:-1}"
COUNT="${COUNT:-1000000}"
OUT="${OUT:-results/run.csv}"
PRESET="${PRESET:-fast}"
MAX_NODES="${MAX_NODES:-1000000}"

cd "${LIMITED_DIR:-${SLURM_SUBMIT_DIR:-.}}"
mkdir -p "$(dirname "$OUT")"

# One worker a CPU Slurm gave the task (the table of each worker is capped by --max-memory).
exec node dist/src/cli/main.js batch \
  --from "$FROM" --count "$COUNT" \
  --preset "$PRESET" --max-nodes "$MAX_NODES" \
  --workers "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$OUT" "$@"
