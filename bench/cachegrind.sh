#!/usr/bin/env bash
# Compares two builds of the solver by counted work instead of the clock: valgrind's cachegrind
# runs `limited solve ARGS` under each build (one a core, side by side) and prints the
# instructions executed and the data-cache misses it simulated. On a shared VM, where timings of
# fixed work vary by 20-50 %, these counts repeat within about 1 % (book deal 9 at 1 M nodes:
# 8.65-8.76 G instructions in four runs of two builds); they do not see the real machine's
# memory latency (TLB misses, other tenants' use of the shared cache). Node's start
# and its compiler are in the counts (about 2.5 G instructions, varying by a few per cent from
# run to run), so compare runs of a million nodes or more.
#
#   bench/cachegrind.sh DIST_A DIST_B [solve arguments...]
#   bench/cachegrind.sh /tmp/before/dist dist 9 --max-nodes 1000000
#
# DIST_A and DIST_B are build directories (`npx tsc -p .` writes dist/). With no solve
# arguments it runs `9 --rules book --max-nodes 1000000`. Each run takes about
# 80 times as long as the solve would alone. Needs valgrind (apt-get install valgrind).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bench/cachegrind.sh DIST_A DIST_B [solve arguments...]" >&2
  exit 2
fi
a=$1 b=$2
shift 2
[ $# -gt 0 ] || set -- 9 --rules book --max-nodes 1000000
command -v valgrind >/dev/null || { echo "bench/cachegrind.sh: valgrind is not installed" >&2; exit 2; }
for d in "$a" "$b"; do
  [ -f "$d/src/cli/main.js" ] || { echo "bench/cachegrind.sh: $d/src/cli/main.js not found (build with npx tsc -p .)" >&2; exit 2; }
done
out=$(mktemp -d)
cores=$(nproc)
run_pair() {
  taskset -c 0 valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null node "$a/src/cli/main.js" solve "$@" >"$out/A.log" 2>&1 &
  taskset -c "$(( 1 % cores ))" valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null node "$b/src/cli/main.js" solve "$@" >"$out/B.log" 2>&1 &
  wait
}
echo "solve $* under cachegrind: A = $a, B = $b (logs in $out)" >&2
run_pair "$@"
rows=()
for k in A B; do
  f=$out/$k.log
  ir=$(awk '/I *refs:/ {print $NF}' "$f")
  if [ -z "$ir" ] || ! grep -q '^verdict:' "$f"; then
    echo "bench/cachegrind.sh: build $k did not finish its solve; the end of $f:" >&2
    grep -v '^==' "$f" | tail -5 >&2
    exit 1
  fi
  d1=$(awk '/D1 *misses:/ {print $4; exit}' "$f")
  ll=$(awk '/LL misses:/ {print $4; exit}' "$f")
  v=$(sed -n 's/^verdict: *//p' "$f" | head -1)
  n=$(sed -n 's/^nodes expanded: *//p' "$f" | head -1)
  rows+=("$(printf '%-4s %16s %14s %12s  %s, %s nodes' "$k" "$ir" "$d1" "$ll" "$v" "$n")")
done
printf '%-4s %16s %14s %12s  %s\n' build instructions D1-misses LL-misses verdict
printf '%s\n' "${rows[@]}"
