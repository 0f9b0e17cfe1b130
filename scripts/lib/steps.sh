# Sourced by scripts/test and .ci/run: named steps with their wall times, and the table of them that
# the outermost script prints when it exits, pass or fail (docs/development.md, "How CI is built").
#
#   step NAME COMMAND...        runs COMMAND now (output as it comes)
#   step_start NAME COMMAND...  runs COMMAND in the background, its output to a log shown by step_wait
#   step_wait NAME              waits for a background step, prints its log
#   step_await NAME [SECONDS]   from another background step of the same script: waits (polling, with a
#                               deadline, default an hour) until NAME has finished; its status is NAME's
#                               (NAME a step_start step, or a step run inside one)
#   step_skip NAME WHY          records a step that did not run
#
# step and step_wait return 0 and leave the step's status in STEP_STATUS (failed steps are also listed
# in STEPS_FAILED): called as plain commands, never from `if` or `||`, so that the step's subshell keeps
# `set -e` and a failing command inside a shell function ends the step (bash ignores `set -e` in a
# function called from a condition, subshells included). The table lives in the file
# UNDERSTUDY_STEPS_FILE, shared with nested scripts: scripts/test's steps show in .ci/run's table.

if [ -z "${UNDERSTUDY_STEPS_FILE:-}" ]; then
    UNDERSTUDY_STEPS_FILE=$(mktemp)
    export UNDERSTUDY_STEPS_FILE
    UNDERSTUDY_STEPS_EPOCH=$(date +%s)
    export UNDERSTUDY_STEPS_EPOCH
    _steps_owner=1
else
    _steps_owner=0
fi
_steps_logs=$(mktemp -d)
declare -A _steps_pids=() _steps_started=()
STEP_STATUS=0
STEPS_FAILED=()

_steps_record() { # NAME STATUS START END
    local cpu=-
    [ -f "$_steps_logs/$1.cpu" ] && cpu=$(_steps_cpu <"$_steps_logs/$1.cpu")
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(($3 - UNDERSTUDY_STEPS_EPOCH))" "$(($4 - $3))" "$cpu" \
        >>"$UNDERSTUDY_STEPS_FILE"
}

# Runs COMMAND (in a subshell) and, however it ends, writes the CPU seconds (user + system) it and every
# process it waited for used to $_steps_logs/NAME.cpu: on two cores, a step's CPU time says more about
# what it costs the run than its wall time, which overlapping steps stretch.
_steps_run() { # NAME COMMAND...
    local name=$1
    shift
    (
        # `times` here, not in a pipe or $(...): a forked shell has no children's times of its own.
        trap 'times >"$_steps_logs/'"$name"'.cpu"' EXIT
        "$@"
    )
}

_steps_cpu() {
    # `times`' second line: the children's user and system time, as "XmY.ZZZs XmY.ZZZs".
    awk 'NR == 2 { total = 0
        for (i = 1; i <= 2; i++) { split($i, t, "m"); total += t[1] * 60 + substr(t[2], 1, length(t[2]) - 1) }
        printf "%d\n", total + 0.5 }'
}

step() {
    local name=$1 started status=0
    shift
    started=$(date +%s)
    echo "==> [$(date -u +%H:%M:%S)] $name: $*"
    _steps_run "$name" "$@" &
    wait $! || status=$?
    _steps_record "$name" "$status" "$started" "$(date +%s)"
    echo "$status" >"$_steps_logs/$name.status"   # for step_await, when this runs in a background step
    _steps_done "$name" "$status"
}

_steps_done() {
    STEP_STATUS=$2
    if [ "$2" -ne 0 ]; then
        STEPS_FAILED+=("$1")
        echo "==> $1 FAILED (status $2)" >&2
    fi
}

step_start() {
    local name=$1
    shift
    echo "==> [$(date -u +%H:%M:%S)] $name (background): $*"
    _steps_started[$name]=$(date +%s)
    # The status file is for step_await (a sibling background step cannot `wait` for this one). The
    # command runs as `step` runs it, never in a condition, so its `set -e` holds.
    (
        local status=0
        _steps_run "$name" "$@" &
        wait $! || status=$?
        date +%s >"$_steps_logs/$name.end"   # the table's end, not when step_wait got to it
        echo "$status" >"$_steps_logs/$name.status"
        exit "$status"
    ) >"$_steps_logs/$name.log" 2>&1 &
    _steps_pids[$name]=$!
}

step_await() {
    local name=$1 deadline=$((SECONDS + ${2:-3600}))
    while [ ! -f "$_steps_logs/$name.status" ]; do
        if [ $SECONDS -ge $deadline ]; then
            echo "step_await: $name did not finish within ${2:-3600} s" >&2
            return 1
        fi
        sleep 1
    done
    return "$(cat "$_steps_logs/$name.status")"
}

step_wait() {
    local name=$1 status=0
    wait "${_steps_pids[$name]}" || status=$?
    echo "==> [$(date -u +%H:%M:%S)] $name (background) finished, status $status; its output:"
    cat "$_steps_logs/$name.log"
    local ended
    ended=$(cat "$_steps_logs/$name.end" 2>/dev/null || date +%s)
    _steps_record "$name" "$status" "${_steps_started[$name]}" "$ended"
    unset "_steps_pids[$name]"
    _steps_done "$name" "$status"
}

step_skip() {
    printf '%s\t%s\t-\t-\t-\n' "$1" "skipped: $2" >>"$UNDERSTUDY_STEPS_FILE"
}

# Background steps still running when the script exits (a failure elsewhere) are stopped.
_steps_stop_background() {
    local name
    for name in "${!_steps_pids[@]}"; do
        kill "${_steps_pids[$name]}" 2>/dev/null || true
        wait "${_steps_pids[$name]}" 2>/dev/null || true
        _steps_record "$name" "stopped" "${_steps_started[$name]}" "$(date +%s)"
    done
}

steps_table() {
    local total=$(($(date +%s) - UNDERSTUDY_STEPS_EPOCH))
    echo
    echo "Steps (seconds; 'at' is the start after the run began; background steps overlap; 'cpu' is user +"
    echo "system time of the step and what it waited for, nested steps included in their parent's):"
    awk -F'\t' -v total="$total" '
        BEGIN { printf "  %-26s %-22s %6s %6s %6s\n", "step", "result", "at", "wall", "cpu" }
        { result = ($2 == "0") ? "ok" : ($2 ~ /^[0-9]+$/ ? "FAILED (" $2 ")" : $2)
          printf "  %-26s %-22s %6s %6s %6s\n", $1, result, $3, $4, $5 }
        END { printf "  %-26s %-22s %6s %6d  (%d min %02d s)\n", "total", "", "", total, total / 60, total % 60 }
    ' "$UNDERSTUDY_STEPS_FILE"
}

_steps_exit() {
    local status=$?
    _steps_stop_background
    if [ "$_steps_owner" -eq 1 ]; then
        steps_table
        rm -f "$UNDERSTUDY_STEPS_FILE"
    fi
    rm -rf "$_steps_logs"
    exit "$status"
}
trap _steps_exit EXIT
