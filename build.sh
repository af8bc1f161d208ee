#!/usr/bin/env bash
# build.sh - every action of the engine on Linux.
#
#   ./build.sh run [host flags]   install what is missing, build, start the game
#   ./build.sh host               the persistent host executable   -> build/host
#   ./build.sh game               the game library only (what the host runs on save)
#   ./build.sh tools              offline tools (atlas packer...)   -> build/tools/
#   ./build.sh assets             pack assets/sprites into build/assets/
#   ./build.sh test               build everything, run every test; ends with "N passed, N failed"
#   ./build.sh bench              run the benchmarks                -> build/bench.json
#   ./build.sh deps               install the Debian packages the engine needs
#   ./build.sh clean              remove build/
#
# Environment: GAME_CXX overrides the compiler of the game library; FUZZ_SECONDS the length
# of each fuzz run in the test suite; TEST_FILTER runs only the tests whose path matches it.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
B="$ROOT/build"

DEBIAN_PACKAGES="g++ clang libclang-rt-dev libsdl2-dev libstb-dev fonts-dejavu-core python3 pkg-config"
COMMON_FLAGS="-std=c++17 -g -Wall -Wextra -I$ROOT/tinyheaders -I$ROOT/game -I$ROOT/platform"
HOST_LIBS="-lSDL2 -lstb -ldl -lpthread -lm"

say() { printf '%s\n' "$*" >&2; }

# ---------------------------------------------------------------- deps
missing_packages() {
    local p missing=""
    for p in $DEBIAN_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    printf '%s' "$missing"
}

cmd_deps() {
    command -v dpkg-query >/dev/null 2>&1 || { say "deps: not a Debian system; install SDL2, stb, clang and DejaVu fonts yourself"; return 0; }
    local missing; missing="$(missing_packages)"
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ]; then
        say "deps: installing$missing"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2 && apt-get install -y -qq $missing >&2 || { say "deps: apt-get failed"; return 1; }
    else
        say "deps: missing packages:$missing"
        say "deps: run:  sudo apt-get install -y$missing"
        return 1
    fi
}

# ---------------------------------------------------------------- compilers
# The game library is rebuilt on every save, so its compile time is the edit-to-reload latency.
# clang++ -O0 builds the unity game faster than g++ -O0 here (numbers in README.md); g++ is the fallback.
game_cxx() {
    if [ -n "${GAME_CXX:-}" ]; then echo "$GAME_CXX"; elif command -v clang++ >/dev/null 2>&1; then echo clang++; else echo g++; fi
}
game_flags() {
    local cxx="$1" f="$COMMON_FLAGS -O0 -fPIC -shared -fno-exceptions -fno-rtti -fvisibility=hidden -fdiagnostics-color=never"
    # __FILE__ relative to the project ("game/entities.cpp"): TWEAK() sites name their file that way,
    # so a library finds its sources wherever the project folder is.
    f="$f -fmacro-prefix-map=$ROOT/="
    # g++ marks some symbols STB_GNU_UNIQUE, which makes dlclose a no-op; clang never emits them.
    case "$cxx" in *clang*) ;; *) f="$f -fno-gnu-unique";; esac
    echo "$f"
}

# ---------------------------------------------------------------- builds
cmd_game() {
    # Built to a temporary name and renamed into place: a reader never sees half a library.
    mkdir -p "$B/game"
    local cxx flags tmp
    cxx="$(game_cxx)"; flags="$(game_flags "$cxx")"
    tmp="$B/game/.libgame.$$.so"
    # The layout stamp: a hash of the persistent types without comments or spacing - game/state.h and
    # the declarations of the tinyheaders game.cpp includes (their structs live in the state too).
    local layout
    layout="$({ grep -E '^#include "th_[a-z_]+\.h"' "$ROOT/game/game.cpp"; echo '#include "state.h"'; } \
        | g++ -x c++ -std=c++17 -E -dD -P -I"$ROOT/tinyheaders" -I"$ROOT/game" - 2>/dev/null | tr -d ' \t\n' | cksum | cut -d' ' -f1)"
    # shellcheck disable=SC2086
    if $cxx $flags -DGAME_LAYOUT_HASH="${layout}u" ${GAME_EXTRA_FLAGS:-} "$ROOT/game/game.cpp" -o "$tmp"; then
        mv -f "$tmp" "$B/game/libgame.so"
    else
        rm -f "$tmp"; return 1
    fi
}

host_sources() { ls "$ROOT"/platform/*.cpp; }

cmd_host() {
    mkdir -p "$B"
    # shellcheck disable=SC2046,SC2086
    g++ $COMMON_FLAGS -O2 -Wno-format-truncation $(sdl2-config --cflags) -I/usr/include/stb $(host_sources) -o "$B/host.tmp" $HOST_LIBS \
        && mv -f "$B/host.tmp" "$B/host"
}

cmd_tools() {
    mkdir -p "$B/tools"
    local f name ok=0
    for f in "$ROOT"/tools/*.cpp; do
        [ -e "$f" ] || continue
        name="$(basename "$f" .cpp)"
        # shellcheck disable=SC2086
        g++ $COMMON_FLAGS -O2 -I/usr/include/stb "$f" -o "$B/tools/$name" -lstb -lm || ok=1
    done
    return $ok
}

cmd_assets() {
    [ -x "$B/tools/atlas_pack" ] || return 0
    "$B/tools/atlas_pack" "$ROOT/assets/sprites" "$B/assets"
}

write_compile_commands() {
    local first=1 f
    {
        echo "["
        for f in $(host_sources) "$ROOT"/game/game.cpp "$ROOT"/tools/*.cpp "$ROOT"/tests/unit/*.cpp "$ROOT"/tests/bench/*.cpp; do
            [ -e "$f" ] || continue
            [ $first = 1 ] || echo ","
            first=0
            printf '  {"directory": "%s", "file": "%s", "command": "g++ %s -I/usr/include/stb -c %s"}' \
                "$ROOT" "$f" "$COMMON_FLAGS" "$f"
        done
        echo; echo "]"
    } > "$ROOT/compile_commands.json"
}

cmd_build() {
    write_compile_commands
    cmd_host || { say "build: host failed"; return 1; }
    cmd_tools || { say "build: tools failed"; return 1; }
    cmd_assets || { say "build: assets failed"; return 1; }
    cmd_game || { say "build: game failed"; return 1; }
}

cmd_run() {
    cmd_deps || exit 1
    cmd_build || exit 1
    exec "$B/host" --root "$ROOT" "$@"
}

# ---------------------------------------------------------------- tests
# Every test program prints "N passed, N failed" as its last such line; the runner adds them up.
# A program that dies before printing it counts as one failure.
TOTAL_PASS=0
TOTAL_FAIL=0
FAILED_NAMES=""

record_result() {   # name logfile exitcode
    local name="$1" log="$2" rc="$3" line p f
    line="$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
    if [ -z "$line" ]; then
        p=0; f=1
    else
        p="$(echo "$line" | sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/')"
        f="$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')"
        [ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
    fi
    TOTAL_PASS=$((TOTAL_PASS + p)); TOTAL_FAIL=$((TOTAL_FAIL + f))
    if [ "$f" != 0 ]; then
        FAILED_NAMES="$FAILED_NAMES $name"
        say "---- $name: FAILED (exit $rc) ----"; tail -n 40 "$log" >&2
    else
        say "     $name: $p passed"
    fi
}

selected() { [ -z "${TEST_FILTER:-}" ] || [[ "$1" == *"$TEST_FILTER"* ]]; }

run_test_program() {  # name command...
    local name="$1"; shift
    local log="$B/tests/logs/$name.log" rc
    mkdir -p "$B/tests/logs"
    "$@" > "$log" 2>&1; rc=$?
    record_result "$name" "$log" "$rc"
}

build_and_run_unit() {  # variant(normal|asan) source
    local variant="$1" src="$2" name ext out cc flags
    name="$(basename "$src")"; ext="${name##*.}"; name="${name%.*}"
    out="$B/tests/$variant/$name-$ext"
    mkdir -p "$B/tests/$variant"
    if [ "$ext" = c ]; then
        cc="gcc"; flags="-std=c99 -g -O1 -Wall -Wextra -Werror -I$ROOT/tinyheaders"
    else
        cc="g++"; flags="$COMMON_FLAGS -O1 -Werror -I/usr/include/stb $(sdl2-config --cflags)"
    fi
    [ "$variant" = asan ] && flags="$flags -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
    # shellcheck disable=SC2086
    if ! $cc $flags "$src" -o "$out" $HOST_LIBS > "$B/tests/logs/$variant-$name-$ext.build.log" 2>&1; then
        record_result "$variant/$name.$ext" "$B/tests/logs/$variant-$name-$ext.build.log" 1
        return
    fi
    run_test_program "$variant-$name-$ext" env ASAN_OPTIONS=detect_leaks=1 "$out"
}

cmd_asan_build() {
    # Host and game under AddressSanitizer + UndefinedBehaviorSanitizer, for the sanitizer test pass.
    mkdir -p "$B/asan"
    local san="-fsanitize=address,undefined -fno-omit-frame-pointer"
    # shellcheck disable=SC2046,SC2086
    g++ $COMMON_FLAGS -O1 -Wno-format-truncation $san $(sdl2-config --cflags) -I/usr/include/stb $(host_sources) -o "$B/asan/host" $HOST_LIBS
}

# Each fuzz target runs FUZZ_SECONDS under ASan + UBSan with every sanitizer report fatal
# (-fno-sanitize-recover=all), so a report is a crash and a crash fails the target; the log is also
# searched for a report in case a sanitizer printed one and carried on. No fuzzer toolchain (clang++
# with libclang-rt-dev) is a failure, never a silent pass.
fuzz_toolchain_ok() {
    command -v clang++ >/dev/null 2>&1 || { echo "clang++ is missing"; return 1; }
    local probe="$B/fuzz/.probe"
    printf '#include <stdint.h>\n#include <stddef.h>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
        | clang++ -x c++ -fsanitize=fuzzer,address,undefined - -o "$probe" 2>&1 || { echo "clang++ cannot link -fsanitize=fuzzer (libclang-rt-dev missing?)"; return 1; }
    rm -f "$probe"
}

cmd_fuzz() {
    local secs="${FUZZ_SECONDS:-8}" src name out why
    mkdir -p "$B/fuzz" "$B/tests/logs"
    if ! why="$(fuzz_toolchain_ok)"; then
        { echo "fuzz: no fuzzer toolchain: $why"; echo "fuzz: install it with ./build.sh deps (packages: clang libclang-rt-dev)"; } \
            > "$B/tests/logs/fuzz-toolchain.log"
        record_result "fuzz-toolchain" "$B/tests/logs/fuzz-toolchain.log" 1
        return
    fi
    for src in "$ROOT"/tests/fuzz/fuzz_*.cpp; do
        [ -e "$src" ] || continue
        name="$(basename "$src" .cpp)"
        selected "$name" || continue
        out="$B/fuzz/$name"
        # shellcheck disable=SC2086
        if ! clang++ $COMMON_FLAGS -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
                -I/usr/include/stb "$src" -o "$out" > "$B/tests/logs/$name.build.log" 2>&1; then
            record_result "$name" "$B/tests/logs/$name.build.log" 1; continue
        fi
        mkdir -p "$B/fuzz/corpus-$name"
        local seeds=""; [ -d "$ROOT/tests/fuzz/seeds/$name" ] && seeds="$ROOT/tests/fuzz/seeds/$name"
        local log="$B/tests/logs/$name.log" rc
        # shellcheck disable=SC2086
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
            "$out" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$B/fuzz/$name-" "$B/fuzz/corpus-$name" $seeds > "$log" 2>&1; rc=$?
        if [ $rc = 0 ] && grep -qE 'runtime error:|ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|SUMMARY: .*Sanitizer' "$log"; then
            echo "fuzz: a sanitizer report in the log" >> "$log"; rc=1
        fi
        if [ $rc = 0 ]; then echo "1 passed, 0 failed" >> "$log"; else echo "0 passed, 1 failed" >> "$log"; fi
        record_result "$name" "$log" "$rc"
    done
}

cmd_test() {
    cmd_deps || exit 1
    cmd_build || { echo "0 passed, 1 failed"; exit 1; }
    mkdir -p "$B/tests/logs"
    local src
    for src in "$ROOT"/tests/unit/test_*.cpp "$ROOT"/tests/unit/test_*.c; do
        [ -e "$src" ] && selected "$src" && build_and_run_unit normal "$src"
    done
    for src in "$ROOT"/tests/e2e/test_*.py; do
        [ -e "$src" ] && selected "$src" || continue
        run_test_program "$(basename "$src" .py)" env HOST_BIN="$B/host" PROJECT_ROOT="$ROOT" python3 "$src"
    done
    # Sanitizer pass: every unit test, and the reload scenarios marked for it, under ASan + UBSan.
    if [ -z "${TEST_FILTER:-}" ] || [[ "asan" == *"$TEST_FILTER"* ]]; then
        if cmd_asan_build > "$B/tests/logs/asan-host.build.log" 2>&1; then
            for src in "$ROOT"/tests/unit/test_*.cpp "$ROOT"/tests/unit/test_*.c; do
                [ -e "$src" ] && build_and_run_unit asan "$src"
            done
            for src in "$ROOT"/tests/e2e/test_*.py; do
                [ -e "$src" ] && grep -q "ASAN_SCENARIO" "$src" || continue
                run_test_program "asan-$(basename "$src" .py)" env HOST_BIN="$B/asan/host" PROJECT_ROOT="$ROOT" \
                    ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0 \
                    SANITIZED=1 python3 "$src"
            done
        else
            record_result "asan-host-build" "$B/tests/logs/asan-host.build.log" 1
        fi
    fi
    cmd_fuzz
    [ -n "$FAILED_NAMES" ] && say "failed:$FAILED_NAMES"
    echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
    [ "$TOTAL_FAIL" = 0 ]
}

# ---------------------------------------------------------------- benchmarks
# Each benchmark prints one flat JSON object on its last line; they are merged into build/bench.json.
cmd_bench() {
    cmd_deps || exit 1
    cmd_build || exit 1
    mkdir -p "$B/bench"
    local parts=() src name out
    for src in "$ROOT"/tests/bench/bench_*.cpp; do
        [ -e "$src" ] && selected "$src" || continue
        name="$(basename "$src" .cpp)"; out="$B/bench/$name"
        # shellcheck disable=SC2046,SC2086
        g++ $COMMON_FLAGS -O2 -DNDEBUG -march=native -I/usr/include/stb $(sdl2-config --cflags) "$src" -o "$out" $HOST_LIBS || exit 1
        say "bench: $name"
        "$out" > "$B/bench/$name.out" || { say "bench: $name failed"; exit 1; }
        parts+=("$B/bench/$name.out")
    done
    for src in "$ROOT"/tests/bench/bench_*.py; do
        [ -e "$src" ] && selected "$src" || continue
        name="$(basename "$src" .py)"
        say "bench: $name"
        HOST_BIN="$B/host" PROJECT_ROOT="$ROOT" python3 "$src" > "$B/bench/$name.out" || { say "bench: $name failed"; exit 1; }
        parts+=("$B/bench/$name.out")
    done
    python3 - "$B/bench.json" "${parts[@]}" <<'EOF'
import json, sys
merged = {}
for path in sys.argv[2:]:
    lines = [l for l in open(path).read().splitlines() if l.strip().startswith("{")]
    if lines:
        merged.update(json.loads(lines[-1]))
json.dump(merged, open(sys.argv[1], "w"), indent=1, sort_keys=True)
print(json.dumps(merged, indent=1, sort_keys=True))
EOF
}

# ---------------------------------------------------------------- main
cmd="${1:-run}"; [ $# -gt 0 ] && shift
case "$cmd" in
    run)    cmd_run "$@" ;;
    host)   write_compile_commands; cmd_host ;;
    game)   cmd_game ;;
    tools)  cmd_tools ;;
    assets) cmd_assets ;;
    build)  cmd_deps && cmd_build ;;
    test)   cmd_test ;;
    bench)  cmd_bench ;;
    fuzz)   mkdir -p "$B/tests/logs"; cmd_fuzz; echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"; [ "$TOTAL_FAIL" = 0 ] ;;
    deps)   cmd_deps ;;
    clean)  rm -rf "$B" "$ROOT/compile_commands.json" ;;
    *)      say "build.sh: unknown command '$cmd' (run, host, game, tools, assets, build, test, bench, fuzz, deps, clean)"; exit 2 ;;
esac
