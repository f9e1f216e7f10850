#!/usr/bin/env bash
# deploy/slurm-array.sh on a real Slurm, brought up here for the purpose and stopped at the end:
# munged and Slurm's daemons for one node (this machine), every file of theirs in a temporary
# directory, on ports of their own, so the machine's own Slurm (if any) is not touched.
#
#   apt-get install slurm-wlm munge     # Debian's packages (apt-get update first)
#   npm run build
#   deploy/slurm-test.sh                # as root, from anywhere; exit 0 when every check passed
#
# It runs a 4-task array (a CPU and 500 MB a task) over a small range, requeues task 0 once it
# has saved a row (`scontrol requeue`: SIGTERM, then the task runs again and resumes), cancels
# task 1 likewise (a failed index), submits that index again on its own (`sbatch --array=1`,
# with 2 CPUs: it must run shard 2 of 4, resume it, and take 2 workers), merges the four shard
# files and compares them with one process's run of the same range: the same rows, all columns
# but ms. Then `experiment winrate` and `experiment tactics` run as the jobs `--print-job slurm`
# prints (3 tasks sharing the work), each with one task cancelled as it works: the others take
# its work, task 1 writes the report, and the estimates, rows and certificates are one
# process's. KEEP=1 keeps the temporary directory (logs, results) for a look.
set -euo pipefail

COUNT="${COUNT:-40}"           # deals 1-COUNT
MAX_NODES="${MAX_NODES:-300000}" # about a quarter of a second a deal
SHARDS=4

say() { echo "slurm-test: $*"; }
die() {
  echo "slurm-test: FAILED: $*" >&2
  exit 1
}

cd "$(dirname "$0")/.."
ROOT="$PWD"
CLI="$ROOT/dist/src/cli/main.js"
for cmd in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo node; do
  command -v "$cmd" >/dev/null || die "$cmd is not installed (apt-get install slurm-wlm munge)"
done
[[ $(id -u) -eq 0 ]] || die "run it as root: slurmd starts jobs as their users"
[[ -f "$CLI" ]] || die "$CLI is missing: npm run build first"

T="$(mktemp -d /tmp/limited-slurm.XXXXXX)"
chmod 755 "$T"
export SLURM_CONF="$T/slurm.conf"
start=$SECONDS

stop_daemons() {
  # Jobs first (slurmd's steps would outlive it), then the daemons, by their pid files.
  if [[ -f "$T/slurmctld.pid" ]]; then
    scancel --quiet --user=root 2>/dev/null || true
    for _ in $(seq 1 150); do [[ -z "$(squeue -h 2>/dev/null)" ]] && break; sleep 0.2; done
  fi
  local name pid
  for name in slurmd slurmctld munged; do
    pid="$(cat "$T/$name.pid" 2>/dev/null)" || continue
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  if [[ "${KEEP:-}" == 1 ]]; then say "kept $T"; else rm -rf "$T"; fi
}
trap stop_daemons EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# Polls CONDITION (a command) every 0.2 s until it holds; gives up with WHAT after 10 minutes.
wait_for() {
  local what="$1"
  shift
  for _ in $(seq 1 3000); do "$@" && return 0; sleep 0.2; done
  die "gave up waiting for $what"
}
rows() { [[ -f "$1" ]] && echo $(($(wc -l <"$1") - 1)) || echo 0; }
has_rows() { (($(rows "$1") >= 1)); }
state() { scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
array_done() { [[ -z "$(squeue -h -j "$1")" ]]; }
is_pending() { [[ "$(state "$1")" == PENDING ]]; }
node_idle() { [[ "$(sinfo -h -o %T 2>/dev/null)" == idle ]]; }
free_port() { node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"; }

# --- munge and Slurm, one node --------------------------------------------------------------
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$T/munge.key"
munged --force --socket="$T/munge.sock" --key-file="$T/munge.key" --pid-file="$T/munged.pid" \
  --log-file="$T/munged.log" --seed-file="$T/munged.seed"
host="$(hostname -s)"
cpus="$(nproc)"
memory=$(($(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024 * 8 / 10))
mkdir -p "$T/state" "$T/spool" "$T/logs" "$T/results"
: >"$T/plugstack.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=limitedtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
PlugStackConfig=$T/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
# SIGTERM to SIGKILL: Slurm's default 30 s can be too short on a loaded machine for a task to
# save what it has done; the test is about the signal, not the machine's speed.
KillWait=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld
slurmd
wait_for "the node to be idle (see $T/slurmctld.log, $T/slurmd.log)" node_idle
say "$(slurmctld -V) up in $((SECONDS - start)) s: one node, $cpus CPUs, $memory MiB"

# --- the reference: one process ---------------------------------------------------------------
# The tasks ask for 500 MB a CPU, so the script gives each worker 500 - 256 MiB of tables.
CAP=244
t=$SECONDS
node "$CLI" batch --from 1 --count "$COUNT" --preset fast --max-nodes "$MAX_NODES" --max-memory "$CAP" --workers 1 --no-progress \
  --out "$T/reference.csv" >/dev/null 2>"$T/reference.err" || die "the one-process run failed: $(cat "$T/reference.err")"
say "one process: deals 1-$COUNT in $((SECONDS - t)) s"

# --- the array, with a requeue and a cancel -----------------------------------------------------
submit() { SHARDS=$SHARDS FROM=1 COUNT="$COUNT" OUT="$T/results/run.csv" MAX_NODES="$MAX_NODES" sbatch --parsable --mem-per-cpu=500M --output="$T/logs/%x-%A_%a.out" "$@" deploy/slurm-array.sh; }
shard() { echo "$T/results/run.shard-$1-of-$SHARDS.csv"; }
t=$SECONDS
job="$(submit --array=0-$((SHARDS - 1)) --cpus-per-task=1)"
job="${job%%;*}"
wait_for "task 0 to save a row" has_rows "$(shard 1)"
scontrol requeue "${job}_0"
# A requeued job waits two minutes before it may start again; it may start now.
wait_for "task 0 to be pending again" is_pending "${job}_0"
scontrol update JobId="${job}_0" StartTime=now
wait_for "task 1 to save a row" has_rows "$(shard 2)"
scancel "${job}_1"
wait_for "array job $job to end" array_done "$job"
[[ "$(state "${job}_1")" == CANCELLED ]] || die "task 1 is $(state "${job}_1"), not CANCELLED"
log0="$T/logs/limited-batch-${job}_0.out"
grep -q "attempt 1,.*workers 1, --max-memory $CAP$" "$log0" && grep -q "limited: interrupted (SIGTERM)" "$log0" && grep -q "attempt 2," "$log0" &&
  grep -q "resuming $(shard 1)" "$log0" || die "task 0's log does not hold both attempts (--open-mode=append): $(cat "$log0")"
grep -q "limited: interrupted (SIGTERM)" "$T/logs/limited-batch-${job}_1.out" ||
  die "task 1 was not stopped by SIGTERM: its log ends: $(tail -5 "$T/logs/limited-batch-${job}_1.out" 2>&1)"
saved0="$(grep -o 'interrupted (SIGTERM): [0-9]*' "$log0" | grep -o '[0-9]*$')"
say "array job $job: $SHARDS tasks of 1 CPU; task 0 requeued with $saved0 of $(rows "$(shard 1)") rows saved and finished, its log holding both attempts; task 1 cancelled with $(rows "$(shard 2)") saved; $((SECONDS - t)) s"
if node "$CLI" merge "$T"/results/run.shard-*.csv >/dev/null 2>"$T/merge.err"; then die "merge took an incomplete shard"; fi
grep -q "incomplete" "$T/merge.err" || die "merge did not say shard 2 is incomplete: $(cat "$T/merge.err")"

# --- index 1 again, on its own, with 2 CPUs ----------------------------------------------------------
t=$SECONDS
again="$(submit --array=1 --cpus-per-task=2)"
again="${again%%;*}"
wait_for "array job $again to end" array_done "$again"
log1="$T/logs/limited-batch-${again}_1.out"
[[ "$(state "${again}_1")" == COMPLETED ]] || die "the resubmitted task is $(state "${again}_1"): $(cat "$log1")"
grep -q "shard 2/$SHARDS, workers 2, --max-memory $CAP$" "$log1" && grep -q "resuming $(shard 2)" "$log1" ||
  die "sbatch --array=1 did not resume shard 2/$SHARDS with 2 workers: $(cat "$log1")"
say "sbatch --array=1 (job $again, 2 CPUs): shard 2/$SHARDS resumed with 2 workers, $((SECONDS - t)) s"

# --- merge, and compare with the one process ------------------------------------------------------
node "$CLI" merge "$T"/results/run.shard-*.csv --out "$T/merged.csv" >/dev/null 2>"$T/merge.err" || die "merge failed: $(cat "$T/merge.err")"
without_ms() { sed 's/,[^,]*$//' "$1"; } # ms is the last column
diff <(without_ms "$T/reference.csv") <(without_ms "$T/merged.csv") >"$T/diff" || die "the merged shards differ from the one-process run: $(head "$T/diff")"
[[ "$(rows "$T/merged.csv")" -eq "$COUNT" ]] || die "merged $(rows "$T/merged.csv") rows, not $COUNT"
say "ok: the $SHARDS merged shards hold the one-process run's $COUNT rows (all columns but ms); $((SECONDS - start)) s so far"

# --- experiment winrate and tactics as cluster jobs, a task cancelled in each --------------------
# A small estimate with strata and rounds, and the tactics experiment's solver rows, each run by
# one process and by the job --print-job slurm prints; the tasks look at each other's files
# every 0.3 s (LIMITED_CLUSTER_POLL_MS, passed on by sbatch's --export=ALL).
export LIMITED_CLUSTER_POLL_MS=300
WR=(experiment winrate --size 1x8,4x3 --count 300 --max-nodes 20000 --sample 10 --long-nodes 300000 --target-width 14 --max-sample 40 --long-memory 256 --certificates)
TA=(experiment tactics --size 1x8,4x3 --only solver --count 60 --solver-count 60 --max-nodes 3000 --sample 6 --long-nodes 100000 --long-memory 256)
t=$SECONDS
node "$CLI" "${WR[@]}" --workers 1 --no-progress --out-dir "$T/wr-one" >/dev/null 2>"$T/wr-one.err" || die "the one-process estimate failed: $(tail -3 "$T/wr-one.err")"
node "$CLI" "${TA[@]}" --workers 1 --no-progress --out-dir "$T/ta-one" >/dev/null 2>"$T/ta-one.err" || die "the one-process tactics failed: $(tail -3 "$T/ta-one.err")"
say "one process: the estimate and the tactics rows in $((SECONDS - t)) s"
without_seconds() { node -e "const l=require('fs').readFileSync(process.argv[1],'utf8').split('\n'); const i=l[0].split(',').indexOf('seconds'); console.log(l.map((x)=>x.split(',').filter((_,k)=>k!==i).join(',')).join('\n'))" "$1"; }
same_estimate() {
  node -e "const [a,b]=process.argv.slice(1).map((f)=>JSON.parse(require('fs').readFileSync(f,'utf8'))); const r=(x)=>({...x.rounds,seconds:0});
    process.exit(JSON.stringify(a.estimates)===JSON.stringify(b.estimates) && JSON.stringify(r(a))===JSON.stringify(r(b)) ? 0 : 1)" "$1" "$2"
}
# Runs the job the experiment prints (3 tasks of a CPU, two at a time on this node), cancels
# array task K once FILE (its shard: it runs) has a row, and checks that the others finished the
# work: task K CANCELLED, the others COMPLETED.
cluster_run() {
  local what="$1" k="$2" file="$3" job
  shift 3
  node "$CLI" "$@" --print-job slurm --tasks 3 --workers 1 >"$T/$what-job.sh" || die "--print-job slurm failed"
  job="$(sbatch --parsable --output="$T/logs/%x-%A_%a.out" "$T/$what-job.sh")"
  job="${job%%;*}"
  wait_for "$what's task $k to save a row" has_rows "$file"
  scancel "${job}_$k"
  wait_for "array job $job to end" array_done "$job"
  [[ "$(state "${job}_$k")" == CANCELLED ]] || die "$what's task $k is $(state "${job}_$k"), not CANCELLED"
  local i
  for i in 0 1 2; do
    [[ $i == "$k" ]] && continue
    [[ "$(state "${job}_$i")" == COMPLETED ]] || die "$what's task $i is $(state "${job}_$i"): $(tail -20 "$T/logs/limited-$what-${job}_$i.out")"
  done
  grep -q "limited: interrupted (SIGTERM)" "$T/logs/limited-$what-${job}_$k.out" || die "$what's task $k was not stopped by SIGTERM: $(tail -20 "$T/logs/limited-$what-${job}_$k.out")"
  echo "$job"
}
t=$SECONDS
wr="$(cluster_run winrate 1 "$T/wr/phase1.shard-2-of-3.csv" "${WR[@]}" --out-dir "$T/wr")"
grep -q "is won with perfect information in" "$T/logs/limited-winrate-${wr}_0.out" || die "task 1 did not write the report: $(tail -5 "$T/logs/limited-winrate-${wr}_0.out")"
same_estimate "$T/wr/winrate.json" "$T/wr-one/winrate.json" || die "the cluster's estimate differs from one process's: $(diff <(head -40 "$T/wr/winrate.json") <(head -40 "$T/wr-one/winrate.json"))"
for f in phase1 phase2; do
  diff <(without_ms "$T/wr/$f.csv") <(without_ms "$T/wr-one/$f.csv") >"$T/diff" || die "the cluster's $f.csv differs from one process's: $(head "$T/diff")"
  cmp -s <(gzip -dc "$T/wr/$f.certs.gz") <(gzip -dc "$T/wr-one/$f.certs.gz") || die "the cluster's $f.certs.gz differs from one process's"
done
node "$CLI" verify-results "$T/wr" >"$T/verify.out" || die "verify-results failed on the cluster's files: $(grep -v '^ok' "$T/verify.out" | head)"
# The cancelled task run again on its own finds the work done.
again="$(sbatch --parsable --array=1 --output="$T/logs/%x-%A_%a.out" "$T/winrate-job.sh")"
again="${again%%;*}"
wait_for "array job $again to end" array_done "$again"
[[ "$(state "${again}_1")" == COMPLETED ]] || die "task 2 run again is $(state "${again}_1")"
say "experiment winrate, job $wr: 3 tasks, task 2 cancelled as it worked and its work taken by the others; the report, the estimate and every row and certificate are one process's; task 2 run again finds it done; $((SECONDS - t)) s"
t=$SECONDS
ta="$(cluster_run tactics 1 "$T/ta/solver-free.shard-2-of-3.csv" "${TA[@]}" --out-dir "$T/ta")"
diff <(without_seconds "$T/ta/tactics.csv") <(without_seconds "$T/ta-one/tactics.csv") >"$T/diff" || die "the cluster's tactics.csv differs from one process's: $(head "$T/diff")"
say "experiment tactics, job $ta: 3 tasks, task 2 cancelled as it worked; tactics.csv is one process's (but the seconds); $((SECONDS - t)) s"
say "ok: batch shards, and experiment winrate and tactics as cluster jobs, equal one process's runs; $((SECONDS - start)) s in all"
