# tests/run.sh - the test and bench runners of ./build.sh: test, test-windows, test-web, test-load, fuzz and bench
# (`./build.sh help`). Sourced by build.sh, after its own functions, which these use: the packages (cmd_deps), the
# presets (cmake_build), the game folder (set_game), the releases (cmd_dist_web, win_sdl2, win_cmake). Every test
# program prints "N passed, N failed" as its last such line; the runner adds them up (docs/testing.md).
# shellcheck shell=bash

# ---------------------------------------------------------------- tests
# Every test program prints "N passed, N failed" as its last such line; the runner adds them up.
# A program that dies before printing it counts as one failure.
TOTAL_PASS=0
TOTAL_FAIL=0
FAILED_NAMES=""

record_result() {   # name logfile exitcode [seconds]
    local name="$1" log="$2" rc="$3" secs="${4:-}" line p f
    line="$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
    if [ -z "$line" ]; then
        p=0; f=1
    else
        p="$(echo "$line" | sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/')"
        f="$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')"
        [ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
    fi
    TOTAL_PASS=$((TOTAL_PASS + p)); TOTAL_FAIL=$((TOTAL_FAIL + f))
    [ -n "$secs" ] && printf '%s %s\n' "$secs" "$name" >> "$BUILD_DIR/tests/times.txt"
    if [ "$f" != 0 ]; then
        FAILED_NAMES="$FAILED_NAMES $name"
        say "---- $name: FAILED (exit $rc${secs:+, $secs s}) ----"; tail -n 40 "$log" >&2
    else
        say "     $name: $p passed${secs:+ ($secs s)}"
    fi
}

# The suite's clock: seconds since a start taken with EPOCHREALTIME, to a tenth.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# The suite's own time, before its last line: the slowest ten results and the whole run (build/tests/times.txt
# holds every timed result's seconds and name).
suite_times() {  # start
    local t="$BUILD_DIR/tests/times.txt"
    [ -s "$t" ] && { say "slowest:"; sort -rn "$t" | head -n 10 | awk '{ printf "  %7.1f s  %s\n", $1, $2 }' >&2; }
    say "suite: $(since "$1") s in all ($({ wc -l < "$t"; } 2>/dev/null || echo 0) timed results)"
}

# TEST_FILTER is matched against the path below the project folder, so the folder's own name (a checkout
# named after a test, say) never selects everything.
selected() { [ -z "${TEST_FILTER:-}" ] || [[ "${1#"$ROOT"/}" == *"$TEST_FILTER"* ]]; }

run_test_program() {  # name command...
    local name="$1"; shift
    local log="$BUILD_DIR/tests/logs/$name.log" rc t0=$EPOCHREALTIME
    mkdir -p "$BUILD_DIR/tests/logs"
    "$@" > "$log" 2>&1; rc=$?
    record_result "$name" "$log" "$rc" "$(since "$t0")"
}

# The suite runs independent programs side by side, TEST_JOBS at once (default: the machine's cores, at most 4;
# TEST_JOBS=1 runs them one after another). Each e2e scenario works in its own copy of the project
# (hostlib.project_copy) and stretches its bounds with the machine's load (hostlib.load_factor), so a neighbour is
# load, never interference. A scenario that says SERIAL_SCENARIO runs alone. Each result is recorded as its
# program ends (its time is its own wall time, neighbours included).
POOL_PIDS=() POOL_NAMES=() POOL_T0=()
pool_jobs() {
    local n="${TEST_JOBS:-}"
    if [ -z "$n" ]; then n="$(nproc)"; [ "$n" -gt 4 ] && n=4; fi
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { say "build.sh: TEST_JOBS is a count of programs (1, 2, ...), got '$n'"; exit 2; }
    echo "$n"
}
pool_run() {  # name command...: runs when a slot is free, output in tests/logs/NAME.log; pool_reap records it
    local name="$1"; shift
    while [ "${#POOL_PIDS[@]}" -ge "$(pool_jobs)" ]; do pool_reap; done
    mkdir -p "$BUILD_DIR/tests/logs"
    # the end time is the program's own (the runner may reap it later, busy starting others)
    ( "$@" > "$BUILD_DIR/tests/logs/$name.log" 2>&1; rc=$?; echo "$EPOCHREALTIME" > "$BUILD_DIR/tests/logs/$name.end"
      exit $rc ) &
    POOL_PIDS+=("$!"); POOL_NAMES+=("$name"); POOL_T0+=("$EPOCHREALTIME")
}
pool_reap() {  # waits for one running program to end and records its result
    local ended="" rc i log end
    wait -n -p ended "${POOL_PIDS[@]}"; rc=$?
    for i in "${!POOL_PIDS[@]}"; do
        [ "${POOL_PIDS[$i]}" = "$ended" ] || continue
        log="$BUILD_DIR/tests/logs/${POOL_NAMES[$i]}"; end=""
        [ -s "$log.end" ] && read -r end < "$log.end"
        record_result "${POOL_NAMES[$i]}" "$log.log" "$rc" \
            "$(awk -v a="${POOL_T0[$i]}" -v b="${end:-$EPOCHREALTIME}" 'BEGIN { printf "%.1f", b - a }')"
        rm -f "$log.end"
        unset 'POOL_PIDS[i]' 'POOL_NAMES[i]' 'POOL_T0[i]'
    done
    POOL_PIDS=("${POOL_PIDS[@]}"); POOL_NAMES=("${POOL_NAMES[@]}"); POOL_T0=("${POOL_T0[@]}")
}
pool_drain() { while [ "${#POOL_PIDS[@]}" -gt 0 ]; do pool_reap; done; }
# A scenario's bound (E2E_TIMEOUT, 900 s by default) catches a hang, not a slow machine: it is stretched by the load
# per core when the scenario starts (the 1-minute load average over the cores, 1 to 4 times), as hostlib stretches
# each wait inside it. bounded runs a command under it.
e2e_bound() {
    awk -v base="${E2E_TIMEOUT:-900}" -v cores="$(nproc)" '{ f = $1 / cores; if (f < 1) f = 1; if (f > 4) f = 4;
        printf "%d", base * f }' /proc/loadavg
}
bounded() { timeout -k 10 "$(e2e_bound)" "$@"; }
e2e_run() {  # name command...: a scenario file's run, in the pool or alone when the file says SERIAL_SCENARIO
    local name="$1" src="$2"; shift 2
    if grep -q SERIAL_SCENARIO "$src"; then pool_drain; run_test_program "$name" "$@"; else pool_run "$name" "$@"; fi
}

# Unit test programs are CMake targets (CMakeLists.txt, "unit tests"): tests/unit/test_x.cpp is the program
# <variant>/test_x-cpp (variant: normal, asan), an extra build of it <variant>/test_x-<suffix>-cpp.
unit_out() {  # variant source [name suffix]: the test program's path
    local name; name="$(basename "$2")"
    echo "$BUILD_DIR/tests/$1/${name%.*}${3:+-$3}-${name##*.}"
}

# Unit test programs: all built first (ninja, one compiler per core, going on past a program that does not
# build), then each run in turn and recorded (its time is its run's; the build's wall time is said once).
run_units() {  # variant "source||name suffix"...
    local variant="$1" job src extra sfx out targets=() t0=$EPOCHREALTIME preset=dev log
    shift
    [ $# = 0 ] && return
    [ "$variant" = asan ] && preset=asan
    log="$BUILD_DIR/tests/logs/$variant-units.build.log"
    mkdir -p "$BUILD_DIR/tests/$variant" "$BUILD_DIR/tests/logs"
    for job in "$@"; do
        IFS='|' read -r src extra sfx <<< "$job"
        out="$(unit_out "$variant" "$src" "$sfx")"
        targets+=("unit_${variant}_${out##*/}")
    done
    KEEP_GOING=1 cmake_build "$preset" "${targets[@]}" > "$log" 2>&1
    say "     unit programs ($variant): $# built in $(since "$t0") s"
    for job in "$@"; do
        IFS='|' read -r src extra sfx <<< "$job"
        out="$(unit_out "$variant" "$src" "$sfx")"
        if [ -x "$out" ] && ! grep -q "FAILED: .*${out##*/}\b" "$log"; then
            pool_run "$variant-${out##*/}${RESULT_SUFFIX:+-$RESULT_SUFFIX}" env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$out"
        else
            record_result "$variant/${out##*/}" "$log" 1
        fi
    done
}

# platform/os/os_template.cpp stays complete: CMakeLists.txt writes a program that takes the address of every
# function os.h declares and links it with the template and os_common.cpp alone (a missing stub: a link error).
test_os_template() {
    local log="$BUILD_DIR/tests/logs/os_template.build.log"
    mkdir -p "$BUILD_DIR/tests/logs"
    if cmake_build dev os_template_check > "$log" 2>&1; then
        run_test_program unit-os_template "$BUILD_DIR/tests/os_template/check"
    else
        record_result unit-os_template "$log" 1
    fi
}

# Host and game under AddressSanitizer + UndefinedBehaviorSanitizer, for the sanitizer test pass (the asan preset).
cmd_asan_build() { cmake_build asan host; }

# Each fuzz target runs FUZZ_SECONDS under ASan + UBSan with every sanitizer report fatal
# (-fno-sanitize-recover=all), so a report is a crash and a crash fails the target; the log is also
# searched for a report in case a sanitizer printed one and carried on. The targets are CMakeLists.txt's (the fuzz
# preset, with clang). No fuzzer toolchain (clang++ with libclang-rt-dev) is a failure, never a silent pass.
fuzz_toolchain_ok() {
    command -v clang++ >/dev/null 2>&1 || { echo "clang++ is missing"; return 1; }
    local probe="$BUILD_DIR/fuzz/.probe"
    printf '#include <stdint.h>\n#include <stddef.h>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
        | clang++ -x c++ -fsanitize=fuzzer,address,undefined - -o "$probe" 2>&1 || { echo "clang++ cannot link -fsanitize=fuzzer (libclang-rt-dev missing?)"; return 1; }
    rm -f "$probe"
}

fuzz_one() {  # name seconds: builds the target (up to date after cmd_fuzz's build) and runs it; its output ends
              # with "N passed, N failed"
    local name="$1" secs="$2" tree="$BUILD_DIR/cmake/fuzz" seeds="" log="$BUILD_DIR/tests/logs/$1.log" rc=0
    # one build in the tree at a time (Ninja's own files are not shared safely)
    flock "$tree/.fuzz-build.lock" cmake --build "$tree" --target "$name" \
        || { echo "fuzz: $name does not build"; echo "0 passed, 1 failed"; return 1; }
    mkdir -p "$BUILD_DIR/fuzz/corpus-$name"
    [ -d "$ROOT/tests/fuzz/seeds/$name" ] && seeds="$ROOT/tests/fuzz/seeds/$name"
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
        "$tree/$name" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$BUILD_DIR/fuzz/$name-" \
        "$BUILD_DIR/fuzz/corpus-$name" ${seeds:+"$seeds"} 2>&1 || rc=$?
    if [ $rc = 0 ] && grep -qE 'runtime error:|ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|SUMMARY: .*Sanitizer' "$log"; then
        echo "fuzz: a sanitizer report in the log"; rc=1
    fi
    if [ $rc = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
    return $rc
}

cmd_fuzz() {
    local secs="${FUZZ_SECONDS:-8}" src name why names=()
    mkdir -p "$BUILD_DIR/fuzz" "$BUILD_DIR/tests/logs"
    if ! why="$(fuzz_toolchain_ok)"; then
        { echo "fuzz: no fuzzer toolchain: $why"; echo "fuzz: install it with ./build.sh deps (packages: clang libclang-rt-dev)"; } \
            > "$BUILD_DIR/tests/logs/fuzz-toolchain.log"
        record_result "fuzz-toolchain" "$BUILD_DIR/tests/logs/fuzz-toolchain.log" 1
        return
    fi
    for src in "$ROOT"/tests/fuzz/fuzz_*.cpp; do
        [ -e "$src" ] || continue
        name="$(basename "$src" .cpp)"
        selected "$name" && names+=("$name")
    done
    [ ${#names[@]} -gt 0 ] || return 0
    # every target in one Ninja run, past a failing one (its own log says why: fuzz_one builds it again)
    KEEP_GOING=1 cmake_build fuzz "${names[@]}" > "$BUILD_DIR/tests/logs/fuzz-build.log" 2>&1
    for name in "${names[@]}"; do pool_run "$name" fuzz_one "$name" "$secs"; done
    pool_drain
}

# --quick: the edit-test loop's tier (under 5 minutes on a quiet machine): the unit tests, the fuzz targets for
# 2 s each, and the e2e scenarios marked QUICK_SCENARIO; no sanitizer pass, no Windows or web leg, no bench smoke.
cmd_test() {
    local quick=0 suite_t0=$EPOCHREALTIME
    case "${1:-}" in
        --quick) quick=1 ;;
        "") ;;
        *) say "build.sh test: unknown flag '$1' (test [--quick])"; exit 2 ;;
    esac
    cmd_deps "$DEBIAN_PACKAGES $TEST_PACKAGES" || exit 1
    cmd_build || { echo "0 passed, 1 failed"; exit 1; }
    mkdir -p "$BUILD_DIR/tests/logs"
    rm -f "$BUILD_DIR/tests/times.txt"
    local src units=() all_units=()
    for src in "$ROOT"/tests/unit/test_*.cpp "$ROOT"/tests/unit/test_*.c; do
        [ -e "$src" ] || continue
        grep -q "ASAN_SKIP" "$src" || all_units+=("$src||")   # the sanitizer pass leaves out a test that says why
        selected "$src" && units+=("$src||")
    done
    # th_collide.h's customizations, each an extra named result: other polygon sizes (lane counts past 8 and
    # below it, a multiple of the SSE2 width and not) and the plain-C lanes (not in the quick tier)
    local t="$ROOT/tests/unit/test_th_collide"
    if [ $quick = 0 ] && { selected "$t.cpp" || selected "${t}_oracle.cpp"; }; then
        units+=("${t}_oracle.cpp|-DTHC_MAX_POLY_VERTS=6|verts6" "${t}_oracle.cpp|-DTHC_MAX_POLY_VERTS=9|verts9"
                "${t}_oracle.cpp|-DTHC_MAX_POLY_VERTS=10|verts10" "${t}_oracle.cpp|-DTHC_MAX_POLY_VERTS=12|verts12"
                "${t}_oracle.cpp|-DTHC_MAX_POLY_VERTS=16|verts16" "${t}_oracle.cpp|-DTHC_NO_SIMD|nosimd"
                "$t.cpp|-DTHC_MAX_POLY_VERTS=12|verts12" "$t.cpp|-DTHC_MAX_POLY_VERTS=6 -DTHC_NO_SIMD|verts6-nosimd")
    fi
    run_units normal "${units[@]}"
    selected "unit/os_template platform/os/os_template.cpp" && test_os_template
    for src in "$ROOT"/tests/e2e/test_*.py; do
        [ -e "$src" ] && selected "$src" || continue
        [ $quick = 1 ] && ! grep -q QUICK_SCENARIO "$src" && continue
        # a hung scenario is killed and counted as a failure (hostlib kills the hosts it started)
        e2e_run "$(basename "$src" .py)" "$src" bounded \
            env HOST_BIN="$BUILD_DIR/host" PROJECT_ROOT="$ROOT" python3 "$src"
    done
    # Sanitizer pass: every unit test, and the reload scenarios marked for it, under ASan + UBSan.
    if [ $quick = 0 ] && { [ -z "${TEST_FILTER:-}" ] || [[ "asan" == *"$TEST_FILTER"* ]]; }; then
        if cmd_asan_build > "$BUILD_DIR/tests/logs/asan-host.build.log" 2>&1; then
            run_units asan "${all_units[@]}"
            for src in "$ROOT"/tests/e2e/test_*.py; do
                [ -e "$src" ] && grep -q "ASAN_SCENARIO" "$src" || continue
                # The host under ASan + UBSan + LeakSanitizer (headless SDL leaks nothing: no suppressions).
                # ASAN_GAME_SCENARIO: the game library it rebuilds on save is sanitized too (g++, the host's
                # runtime); not for the scenarios that inject faults on purpose (those are UB by design).
                # The fault guard owns SIGSEGV/SIGFPE/SIGILL/SIGABRT; hostlib fails the test on any report.
                local game_cxx="" game_flags=""
                if grep -q "ASAN_GAME_SCENARIO" "$src"; then
                    game_cxx=g++; game_flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
                fi
                e2e_run "asan-$(basename "$src" .py)" "$src" bounded \
                    env HOST_BIN="$BUILD_DIR/asan/host" PROJECT_ROOT="$ROOT" \
                    ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0 \
                    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
                    GAME_CXX="${game_cxx:-${GAME_CXX:-}}" GAME_EXTRA_FLAGS="$game_flags" \
                    SANITIZED=1 python3 "$src"
            done
        else
            record_result "asan-host-build" "$BUILD_DIR/tests/logs/asan-host.build.log" 1
        fi
    fi
    if [ $quick = 1 ]; then FUZZ_SECONDS="${FUZZ_SECONDS:-2}" cmd_fuzz; else cmd_fuzz; fi
    pool_drain   # the legs below run alone: each builds into the checkout's build/ and serves or drives one window
    if [ $quick = 0 ]; then
        selected "windows" && cmd_test_windows_leg
        selected "web" && cmd_test_web_leg
        test_bench_quick
    fi
    suite_times "$suite_t0"
    [ -n "$FAILED_NAMES" ] && say "failed:$FAILED_NAMES"
    echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
    [ "$TOTAL_FAIL" = 0 ]
}

# ---------------------------------------------------------------- the suite under load
# test-load [ROUNDS]: the tests that once failed on a busy machine (a 10 ms watchdog on a real frame, a 2 ms gap
# against the watcher's quiet time, fixed sleeps, fixed gdb timers, hosts at --watchdog 1), ROUNDS times (3) with a
# CPU hog on every core beside them. Every round must be green: a test waits for events and step counts, and its
# bounds stretch with the load (tests/e2e/hostlib.py, load_factor). docs/testing.md.
LOAD_SENSITIVE="tests/unit/test_guard.cpp tests/e2e/test_host_flags.py tests/e2e/test_live_reload.py
    tests/e2e/test_watchdog_held.py tests/e2e/test_watchdog_stress.py tests/e2e/test_sound.py tests/e2e/test_gdb_reload.py
    tests/e2e/test_survive_faults.py tests/e2e/test_rollback_fix.py tests/e2e/test_load_faults.py tests/e2e/test_hot_restart.py
    tests/e2e/test_session_guards.py tests/e2e/test_session_guards_restart.py tests/e2e/test_session_guards_fds.py
    tests/e2e/test_timeline.py tests/e2e/test_control.py tests/e2e/test_chunked_build.py"
cmd_test_load() {
    local rounds="${1:-3}" hogs=() r f t0=$EPOCHREALTIME i
    TEST_JOBS=1   # one test at a time: the hogs are the load
    [[ "$rounds" =~ ^[1-9][0-9]?$ ]] || { say "build.sh test-load: ROUNDS is a count 1..99, got '$rounds'"; exit 2; }
    cmd_deps "$DEBIAN_PACKAGES $TEST_PACKAGES" || exit 1
    cmd_build || { echo "0 passed, 1 failed"; exit 1; }
    mkdir -p "$BUILD_DIR/tests/logs"
    rm -f "$BUILD_DIR/tests/times.txt"
    for (( i = 0; i < $(nproc); i++ )); do ( while :; do :; done ) & hogs+=($!); done
    # shellcheck disable=SC2064
    trap "kill ${hogs[*]} 2>/dev/null" EXIT
    say "test-load: ${#hogs[@]} CPU hogs running, $rounds rounds"
    for (( r = 1; r <= rounds; r++ )); do
        for f in $LOAD_SENSITIVE; do
            selected "$ROOT/$f" || continue
            case "$f" in
                *.cpp) RESULT_SUFFIX="load$r" run_units normal "$ROOT/$f||" ;;
                *.py)  pool_drain; run_test_program "$(basename "$f" .py)-load$r" bounded \
                           env HOST_BIN="$BUILD_DIR/host" PROJECT_ROOT="$ROOT" python3 "$ROOT/$f" ;;
            esac
        done
    done
    pool_drain
    suite_times "$t0"
    [ -n "$FAILED_NAMES" ] && say "failed:$FAILED_NAMES"
    echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
    [ "$TOTAL_FAIL" = 0 ]
}

# ---------------------------------------------------------------- the Windows leg
# (SDL2 for mingw-w64 and the mingw trees are build.sh's: win_sdl2, win_cmake; the leg runs what they built)
# wine: a prefix of our own under build/win (made once), one wineserver for the whole leg,
# errors about missing DLLs kept visible, no Mono/Gecko prompts, SDL headless.
win_wine_env() {
    export WINEPREFIX="$WIN/wineprefix" WINEARCH=win64 WINEDEBUG="-all,err+module" WINEDLLOVERRIDES="mscoree,mshtml=" \
        SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy
}
win_wine_start() {
    win_wine_env
    wineserver -k > /dev/null 2>&1
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
        local t0; t0="$(win_now)"
        wineboot -i > "$WIN/wineboot.log" 2>&1; wineserver -w
        [ -f "$WINEPREFIX/system.reg" ] || { say "windows: wineboot failed (see $WIN/wineboot.log)"; return 1; }
        win_time "wine_prefix" "$t0"
    fi
    wineserver -p 30 > /dev/null 2>&1
}
win_wine_stop() { wineserver -k > /dev/null 2>&1; wineserver -w > /dev/null 2>&1; return 0; }

win_path() { local p="$1"; echo "Z:${p//\//\\}"; }   # wine maps / to drive Z:

win_run() {  # log exe args...: runs under wine, output to the log file (never a pipe), bounded in time
    local log="$1"; shift
    timeout -k 5 "${WIN_TEST_TIMEOUT:-180}" wine "$@" > "$log" 2>&1
}

cmd_test_windows_leg() {
    mkdir -p "$WIN" "$BUILD_DIR/tests/logs"
    : > "$WIN/timings.txt"
    local t_leg t0 sdl log="$BUILD_DIR/tests/logs/windows-setup.log"
    t_leg="$(win_now)"
    { t0="$(win_now)"; win_deps && win_time "packages" "$t0"; } > "$log" 2>&1 \
        || { record_result "windows-setup" "$log" 1; return; }
    t0="$(win_now)"
    sdl="$(win_sdl2 2>> "$log")" || { record_result "windows-sdl2" "$log" 1; return; }
    win_time "sdl2_ready" "$t0"
    win_wine_start >> "$log" 2>&1 || { record_result "windows-wine" "$log" 1; return; }

    # Smoke: SDL2 offscreen under wine, the game DLL loaded, run and unloaded.
    # TEST_FILTER=windows/<file> runs one part of the leg (the setup, SDL2 and wine always).
    if selected "$ROOT/tests/windows/test_win_smoke.cpp"; then
    mkdir -p "$WIN/smoke"
    t0="$(win_now)"
    if win_cmake mingw "$sdl" test_win_smoke > "$BUILD_DIR/tests/logs/windows-smoke.build.log" 2>&1 \
        && { ( BUILD_DIR="$WIN/e2e-lib"; cmd_game_win ) && cp -f "$WIN/e2e-lib/game/game.dll" "$WIN/smoke/game.dll"; } \
            >> "$BUILD_DIR/tests/logs/windows-smoke.build.log" 2>&1; then
        win_time "smoke_build" "$t0"; t0="$(win_now)"
        win_run "$BUILD_DIR/tests/logs/windows-smoke.log" "$WIN/smoke/test_win_smoke.exe" \
            "$(win_path "$WIN/smoke/game.dll")" "$(win_path "$WIN/smoke")"
        record_result "windows-smoke" "$BUILD_DIR/tests/logs/windows-smoke.log" $?
        win_time "smoke_run" "$t0"
    else
        record_result "windows-smoke" "$BUILD_DIR/tests/logs/windows-smoke.build.log" 1
    fi
    fi

    # os_win32*.cpp on their own: files, watching, children, DLLs, faults and the watchdog.
    if selected "$ROOT/tests/windows/test_os_win32.cpp"; then
    t0="$(win_now)"
    mkdir -p "$WIN/os"
    if { win_cmake mingw "$sdl" test_os_win32 && win_cmake mingw-tests "$sdl" testlib1 testlib2; } \
            > "$BUILD_DIR/tests/logs/windows-os.build.log" 2>&1; then
        rm -rf "$WIN/os/scratch"
        win_run "$BUILD_DIR/tests/logs/windows-os.log" "$WIN/os/test_os_win32.exe" "$(win_path "$WIN/os/scratch")" \
            "$(win_path "$WIN/os/testlib1.dll")" "$(win_path "$WIN/os/testlib2.dll")"
        record_result "windows-os" "$BUILD_DIR/tests/logs/windows-os.log" $?
    else
        record_result "windows-os" "$BUILD_DIR/tests/logs/windows-os.build.log" 1
    fi
    win_time "os_test" "$t0"
    fi

    # The real host.exe under wine on a copy of the project: reload, faults, watchdog, TWEAK; the hot restart.
    if selected "$ROOT/tests/windows/test_win_e2e.py" || selected "$ROOT/tests/windows/test_win_restart.py"; then
    t0="$(win_now)"
    if win_cmake mingw "$sdl" host win_launch > "$BUILD_DIR/tests/logs/windows-host.build.log" 2>&1 \
        && ( BUILD_DIR="$WIN/e2e-lib"; cmd_game_win ) >> "$BUILD_DIR/tests/logs/windows-host.build.log" 2>&1; then
        win_time "host_build" "$t0"
        local part
        for part in e2e restart; do
            selected "$ROOT/tests/windows/test_win_$part.py" || continue
            t0="$(win_now)"
            WIN_DIR="$WIN" WIN_GAME_DLL="$WIN/e2e-lib/game/game.dll" PROJECT_ROOT="$ROOT" \
                timeout -k 5 600 python3 "$ROOT/tests/windows/test_win_$part.py" > "$BUILD_DIR/tests/logs/windows-$part.log" 2>&1
            record_result "windows-$part" "$BUILD_DIR/tests/logs/windows-$part.log" $?
            win_time "${part}_run" "$t0"
        done
    else
        record_result "windows-e2e" "$BUILD_DIR/tests/logs/windows-host.build.log" 1
    fi
    fi

    # The release (./build.sh dist-windows) built into build/win/release/, its .zip unpacked and run as a player would.
    if selected "$ROOT/tests/windows/test_win_dist.py"; then
    t0="$(win_now)"
    if { cmd_tools && cmd_assets && win_dist "$sdl" "$WIN/release"; } > "$BUILD_DIR/tests/logs/windows-dist.build.log" 2>&1; then
        win_time "dist_build" "$t0"; t0="$(win_now)"
        WIN_DIST_ZIP="$WIN/release/$GAME_NAME-windows-x86_64.zip" PROJECT_ROOT="$ROOT" \
            timeout -k 5 300 python3 "$ROOT/tests/windows/test_win_dist.py" > "$BUILD_DIR/tests/logs/windows-dist.log" 2>&1
        record_result "windows-dist" "$BUILD_DIR/tests/logs/windows-dist.log" $?
        win_time "dist_run" "$t0"
    else
        record_result "windows-dist" "$BUILD_DIR/tests/logs/windows-dist.build.log" 1
    fi
    fi
    win_wine_stop
    win_time "leg_total" "$t_leg"
    compile_db > /dev/null 2>&1 || true   # the editor database gains the Windows trees' entries
}

cmd_test_windows() {
    cmd_deps || exit 1
    cmd_test_windows_leg
    [ -n "$FAILED_NAMES" ] && say "failed:$FAILED_NAMES"
    echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
    [ "$TOTAL_FAIL" = 0 ]
}

# ---------------------------------------------------------------- the web leg
# The web leg of ./build.sh test: the sample's web release built (emscripten and SDL2 cached as dist-web does),
# then played in the system chromium by tests/web/test_web.py through puppeteer-core, installed once from
# npm into build/web/node (chromium is Debian's; puppeteer's own browser download is skipped).
WEB_TEST_PACKAGES="chromium"
web_node_modules() {  # prints the folder NODE_PATH needs
    local dir="$WEB/node"
    # node and npm: Debian's, unless the machine has its own (a node from elsewhere conflicts with Debian's npm)
    command -v npm >/dev/null 2>&1 || cmd_deps "nodejs npm" >&2 || return 1
    if [ ! -f "$dir/node_modules/puppeteer-core/package.json" ]; then
        mkdir -p "$dir"
        ( cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm install --no-audit --no-fund --silent puppeteer-core@24 ) >&2 \
            || { say "web: npm install puppeteer-core failed"; return 1; }
    fi
    echo "$dir/node_modules"
}
cmd_test_web_leg() {
    local log="$BUILD_DIR/tests/logs/web-build.log" modules
    mkdir -p "$BUILD_DIR/tests/logs"
    if ! { cmd_deps "$WEB_TEST_PACKAGES" && cmd_dist_web && modules="$(web_node_modules)"; } > "$log" 2>&1; then
        echo "0 passed, 1 failed" >> "$log"; record_result "web-build" "$log" 1; return
    fi
    run_test_program "web-play" timeout -k 10 600 env WEB_DIST="$ROOT/dist/$GAME_NAME-web" WEB_OUT="$BUILD_DIR/tests/web" \
        WEB_NODE_PATH="$modules" python3 tests/web/test_web.py
}

# ---------------------------------------------------------------- benchmarks
# Each benchmark prints one flat JSON object on its last line; they are merged into build/bench.json.
# A C++ benchmark is a CMake target (CMakeLists.txt, "C++ benchmarks"): bench_x at -O2 into build/bench/, its
# quick build (-O1, the suite's smoke leg) bench_x_quick into build/tests/bench-quick/.
bench_compile() {  # src out optimization: a C++ benchmark built as ./build.sh bench builds it
    local name; name="$(basename "$1" .cpp)"
    if [ "$3" = -O2 ]; then cmake_build dev "$name"; else cmake_build dev "${name}_quick"; fi
}

# Every part runs, whatever the others did. A part that does not build, exits non-zero, runs past BENCH_TIMEOUT
# seconds or ends without its metrics (tests/bench/results.py check) is named in build/bench.json's "failed"
# list, and the command exits 1 after the last part, naming them.
BENCH_PACKAGES="$DEBIAN_PACKAGES $TEST_PACKAGES $WEB_TEST_PACKAGES"   # bench_render's Xvfb, bench_web's chromium
bench_part() {  # src outdir optimization: 0 when the part ran and printed its metrics; its log is outdir/NAME.log
    local src="$1" dir="$2" name ext log out rc=0
    name="$(basename "$src")"; ext="${name##*.}"; name="${name%.*}"
    log="$dir/$name.log"; out="$dir/$name.out"
    mkdir -p "$dir"; : > "$log"; rm -f "$out"
    if [ "$ext" = cpp ]; then
        bench_compile "$src" "$dir/$name" "$3" >> "$log" 2>&1 || { echo "bench: $name: the build failed" >> "$log"; return 1; }
        timeout -k 10 "${BENCH_TIMEOUT:-900}" "$dir/$name" > "$out" 2>> "$log" || rc=$?
    else
        HOST_BIN="$BUILD_DIR/host" PROJECT_ROOT="$ROOT" timeout -k 10 "${BENCH_TIMEOUT:-900}" python3 "$src" > "$out" 2>> "$log" || rc=$?
    fi
    cat "$out" >> "$log" 2>/dev/null
    [ $rc = 124 ] && { echo "bench: $name did not finish in ${BENCH_TIMEOUT:-900} s (BENCH_TIMEOUT): stopped" >> "$log"; return 1; }
    [ $rc = 0 ] || { echo "bench: $name exited with $rc" >> "$log"; return 1; }
    python3 tests/bench/results.py check "$out" >> "$log" 2>&1
}
bench_sources() { local s; for s in "$ROOT"/tests/bench/bench_*.cpp "$ROOT"/tests/bench/bench_*.py; do [ -e "$s" ] && selected "$s" && echo "$s"; done; }

cmd_bench() {
    local dir="$BUILD_DIR/bench" failed=() outs=() src name
    mkdir -p "$dir"
    if ! { cmd_deps "$BENCH_PACKAGES" && cmd_build; }; then
        python3 tests/bench/results.py merge "$BUILD_DIR/bench.json" "build"
        say "bench: the build failed, no part could run (build/bench.json: failed [build])"; exit 1
    fi
    for src in $(bench_sources); do
        name="$(basename "$src")"; name="${name%.*}"
        say "bench: $name"
        if bench_part "$src" "$dir" -O2; then
            outs+=("$dir/$name.out")
        else
            failed+=("$name"); say "bench: $name FAILED (build/bench/$name.log):"; tail -n 15 "$dir/$name.log" >&2
        fi
    done
    python3 tests/bench/results.py merge "$BUILD_DIR/bench.json" "${failed[*]:-}" "${outs[@]}"
    cat "$BUILD_DIR/bench.json"
    if [ ${#failed[@]} != 0 ]; then say "bench: ${#failed[@]} parts failed: ${failed[*]}"; exit 1; fi
    say "bench: every part gave its metrics: build/bench.json"
}

# The suite's bench smoke leg: every part once with BENCH_QUICK=1 (few iterations), each a named result, so a
# benchmark that goes stale fails the suite. Their metrics go to build/tests/bench-quick.json, never bench.json.
test_bench_quick() {
    local dir="$BUILD_DIR/tests/bench-quick" outs=() src name t0
    for src in $(bench_sources); do
        name="$(basename "$src")"; name="${name%.*}"; t0=$EPOCHREALTIME
        if BENCH_QUICK=1 BENCH_TIMEOUT="${BENCH_QUICK_TIMEOUT:-600}" bench_part "$src" "$dir" -O1; then
            echo "1 passed, 0 failed" >> "$dir/$name.log"; outs+=("$dir/$name.out")
        else
            echo "0 passed, 1 failed" >> "$dir/$name.log"
        fi
        record_result "bench-quick-$name" "$dir/$name.log" 0 "$(since "$t0")"
    done
    BENCH_QUICK=1 python3 tests/bench/results.py merge "$BUILD_DIR/tests/bench-quick.json" "" "${outs[@]}"
}
