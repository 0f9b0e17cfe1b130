#!/usr/bin/env bash
# Issue 11's suite benchmark: the same 240-test Swift Testing suite (ParallelIsolationTests, run in
# parallel as Swift Testing does by default) on sessions of one shared daemon, and with a daemon
# launched per test (UNDERSTUDY_SUITE_MODE=daemon-per-test), wall time side by side.
#
# Usage: scripts/benchmark/parallel_suite_bench.sh [ROUNDS]   (default 1; modes alternate per round)
# Prints, per run, the whole `swift test` wall time and the suite's own time as Swift Testing
# reports it ("Test run ... passed after N seconds"), then the medians; last, what one session
# costs a test (Understudy.session with the suite's stub file, then stop(), 500 times in a row:
# SessionCostProbe.swift). Wall-clock: the numbers mean something only on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-1}"
. scripts/lib/ensure-deps.sh
ensure_libevent
mapfile -t build_flags < <(grep -v '^#' scripts/lib/build-flags)
swift build "${build_flags[@]}" --build-tests >/dev/null

log="$(mktemp -d)/suite.log"
declare -a session_wall session_suite daemon_wall daemon_suite

run() {  # run MODE → sets WALL and SUITE (seconds)
    local mode="$1" start end
    start=$(date +%s.%N)
    if [ "$mode" = sessions ]; then
        timeout 900 swift test --skip-build --filter ParallelIsolationTests >"$log" 2>&1 || { cat "$log"; exit 1; }
    else
        UNDERSTUDY_SUITE_MODE=daemon-per-test \
            timeout 900 swift test --skip-build --filter ParallelIsolationTests >"$log" 2>&1 || { cat "$log"; exit 1; }
    fi
    end=$(date +%s.%N)
    WALL=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    SUITE=$(sed -n 's/.*Test run with [0-9]* tests* in [0-9]* suites* passed after \([0-9.]*\) seconds.*/\1/p' "$log" | tail -1)
    [ -n "$SUITE" ] || { echo "no 'Test run ... passed' line in the output:"; tail -20 "$log"; exit 1; }
    grep -q 'with 240 test cases passed' "$log" || { echo "the 240 cases did not all run and pass:"; tail -20 "$log"; exit 1; }
}

printf '%-6s %-17s %10s %10s\n' round mode "wall (s)" "suite (s)"
for round in $(seq 1 "$rounds"); do
    for mode in sessions daemon-per-test; do
        run "$mode"
        printf '%-6s %-17s %10.2f %10.2f\n' "$round" "$mode" "$WALL" "$SUITE"
        if [ "$mode" = sessions ]; then session_wall+=("$WALL"); session_suite+=("$SUITE")
        else daemon_wall+=("$WALL"); daemon_suite+=("$SUITE"); fi
    done
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
sw=$(median "${session_wall[@]}"); ss=$(median "${session_suite[@]}")
dw=$(median "${daemon_wall[@]}"); ds=$(median "${daemon_suite[@]}")
echo
echo "240 tests in parallel, median of $rounds round(s):"
printf '  %-36s wall %7.2f s   suite %7.2f s\n' "sessions on one shared daemon" "$sw" "$ss"
printf '  %-36s wall %7.2f s   suite %7.2f s\n' "a daemon launched per test" "$dw" "$ds"
awk -v sw="$sw" -v ss="$ss" -v dw="$dw" -v ds="$ds" 'BEGIN { printf "  daemon per test / sessions: wall %.1fx, suite %.1fx\n", dw / sw, ds / ss }'

echo
UNDERSTUDY_KIT_SESSION_COST=500 timeout 300 swift test --skip-build --filter sessionCostProbe >"$log" 2>&1 || { cat "$log"; exit 1; }
sed -n 's/^session cost/one session as a test sees it: &/p' "$log"
