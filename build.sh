#!/usr/bin/env bash
# build.sh - every action of the engine on Linux. `./build.sh help` lists the commands (usage() below);
# GAME is a game folder (state.h + game.cpp; docs/game_api.md), game/ when left out.
#
# Environment: GAME_CXX overrides the compiler of the game library; GAME_CHUNK_LINES bounds the lines
# of one of its translation units (400; docs/game_api.md, "More than one file"); FUZZ_SECONDS the length
# of each fuzz run in the test suite; TEST_FILTER runs only the tests whose path matches it.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CALLER_DIR="$PWD"   # a game folder named on the command line is relative to where the command was typed
cd "$ROOT"
BUILD_DIR="$ROOT/build"
# Every command runs from $ROOT and names project files relative to it: the project folder may be
# anywhere, with spaces in its name, and a flag string like COMMON_FLAGS is split on spaces.

DEBIAN_PACKAGES="g++ clang libclang-rt-dev libsdl2-dev libstb-dev fonts-dejavu-core python3 pkg-config sox libsox-fmt-base cmake ninja-build ccache mold"
# and for ./build.sh test: the editor and debugger checks (clangd on every kind of file, Windows' with
# mingw-w64's headers, the web backend's with emscripten's; gdb across reloads; Xvfb and Mesa for the OpenGL
# renderer's glow test; Box2D 2.4.1, the peer tests/bench/bench_collide_box2d24.cpp links: test runs every bench part;
# clang-cl for test_build_bat, which configures the msvc presets with it where cl.exe cannot run)
TEST_PACKAGES="clangd clang-tools gdb g++-mingw-w64-x86-64-win32 emscripten xvfb xauth libgl1-mesa-dri libbox2d-dev"
# The flags every compile outside CMake starts with: their one home is platform/live/game_flags.h, which the
# host's game build reads too (the development checks, ENGINE_DEV_CHECKS, are the host's game build's alone).
COMMON_FLAGS="$(sed -n 's/^#define ENGINE_COMMON_FLAGS "\(.*\)"$/\1/p' platform/live/game_flags.h)"
# stb: the headers from the system (libstb-dev); the implementations (platform/core/stb_impl.c) are compiled by the
# project (CMakeLists.txt) into everything that links them.
STB_FLAGS="-I/usr/include/stb"

say() { printf '%s\n' "$*" >&2; }

usage() {
    cat <<'EOF'
usage: ./build.sh [command] [GAME] [host flags]     GAME: a game folder (default: game/, the sample)

  run [GAME] [flags]   install what is missing, build, start the game (the default command)
  debug [GAME] [flags] the same under gdb, set up for reloads (docs/debugging.md)
  new NAME|PATH        make a new game folder from tools/template/ (NAME: in the current folder)
  game [GAME]          the game library only (what the host runs on save)
  host                 the persistent host executable            -> build/host
  tools                offline tools (atlas packer...)           -> build/tools/
  assets               pack assets/sprites into build/assets/
  build                deps, host, tools, assets and the game
  test [--quick]       build everything, run every test; ends with "N passed, N failed" (TEST_FILTER=part);
                       --quick: unit tests, short fuzz runs and the fast e2e scenarios (docs/testing.md)
  test-windows         the Windows leg alone: mingw-w64 cross build, tests run under wine
  test-load [ROUNDS]   the timing-sensitive tests ROUNDS times (3) beside a CPU hog on every core
  bench                run every benchmark part                  -> build/bench.json (failed parts named)
  dist [GAME]          the game for players (game linked in, assets in game.pak) -> dist/<name>-linux-x86_64/
  dist-windows [GAME]  the same for Windows (mingw-w64), with SDL2.dll        -> dist/<name>-windows-x86_64/
  dist-web [GAME]      the same for a web browser (Emscripten, WebAssembly)    -> dist/<name>-web/
  test-web             the web leg alone: dist-web, played in headless chromium
  fuzz                 the fuzz targets alone (FUZZ_SECONDS each)
  deps                 install the Debian packages the engine needs
  clean                remove build/
  help, -h, --help     this list
EOF
    # the host's flags, from the text `build/host --help` prints (platform/core/parse.cpp), so the two never differ
    printf '\nhost flags (after run or debug, or given to build/host itself; build/host --help prints them too):\n'
    sed -n '/^const FlagSet FLAGS_DEVELOPMENT/,/--help\\n"/p' platform/core/parse.cpp | grep '^ *"  ' \
        | sed -e 's/^ *"/  /' -e 's/\\n",*$//' -e 's/\\"/"/g' -e '/^ *--help$/d'
    printf '\na release takes fewer (docs/shipping.md); its own --help lists them.\n'
}

# ---------------------------------------------------------------- deps
missing_packages() {  # [package list; default DEBIAN_PACKAGES]
    # one dpkg-query for the whole list (a process per package cost a second `run` ~0.1 s)
    local p missing="" installed
    # shellcheck disable=SC2086
    installed=" $(dpkg-query -W -f='${Package}:${Status}\n' ${1:-$DEBIAN_PACKAGES} 2>/dev/null \
        | awk -F: '/install ok installed/ { printf "%s ", $1 }')"
    for p in ${1:-$DEBIAN_PACKAGES}; do
        [[ "$installed" == *" $p "* ]] || missing="$missing $p"
    done
    printf '%s' "$missing"
}

cmd_deps() {  # [package list; default DEBIAN_PACKAGES]
    command -v dpkg-query >/dev/null 2>&1 || { say "deps: not a Debian system; install SDL2, stb, clang and DejaVu fonts yourself"; return 0; }
    local missing; missing="$(missing_packages "${1:-$DEBIAN_PACKAGES}")"
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ]; then
        say "deps: installing$missing"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2 && apt-get install -y -qq $missing >&2 || { say "deps: apt-get failed"; return 1; }
    else
        say "deps: missing packages:$missing"
        say "deps: as root, run:  su -c 'apt-get update && apt-get install -y$missing'"
        command -v sudo >/dev/null 2>&1 && say "deps: or:  sudo sh -c 'apt-get update && apt-get install -y$missing'"
        return 1
    fi
}

# ---------------------------------------------------------------- the game folder
# A game is a folder holding state.h and game.cpp (and optionally assets/): game/, the sample, by default,
# or the folder named after run, debug, game, dist and dist-windows (docs/game_api.md, "The game folder").
# GAME_DIR: its real path. GAME_SRC: how the commands name it (relative to $ROOT when below it).
# GAME_BUILD: its build outputs - build/game/ for the sample, build/games/<folder>-<hash of the real path>/
# for any other, so two folders of the same name never share one (the host names it: platform/live/game_folder.cpp,
# `build/host --print-game-build`). GAME_NAME: the release's name (the sample's is neon-swarm, another's its folder's).
SAMPLE_NAME="neon-swarm"
# The host answers where a game folder's build outputs go (platform/live/game_folder.cpp), and runs the compile and
# link of a game build (platform/live/build.cpp): ENGINE_HOST when a running host started this script (a copy of the
# project may have no build/host of its own), else build/host, built first when it is missing.
engine_host() {
    local h="${ENGINE_HOST:-$BUILD_DIR/host}"
    if [ ! -x "$h" ]; then
        h="$BUILD_DIR/host"
        [ -x "$h" ] || { cmd_deps >&2 && cmd_host >&2; } || return 1
    fi
    echo "$h"
}
set_game() {  # [folder; default game/]
    local d="${1:-$ROOT/game}" f real_root
    case "$d" in /*) ;; *) if [ -d "$CALLER_DIR/$d" ]; then d="$CALLER_DIR/$d"; else d="$ROOT/$d"; fi ;; esac
    [ -d "$d" ] || { say "build.sh: no game folder ${1:-game/} (a game folder holds state.h and game.cpp: docs/game_api.md)"; return 1; }
    d="$(cd "$d" && pwd -P)"
    for f in state.h game.cpp; do
        [ -f "$d/$f" ] || { say "build.sh: $d is not a game folder: it has no $f (docs/game_api.md)"; return 1; }
    done
    GAME_DIR="$d"
    real_root="$(pwd -P)"
    if [ "$GAME_DIR" = "$real_root/game" ]; then
        GAME_BUILD="$BUILD_DIR/game"; GAME_NAME="$SAMPLE_NAME"
    else
        GAME_NAME="$(basename "$GAME_DIR" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9_\n-' '-')"
        local host; host="$(engine_host)" || return 1
        GAME_BUILD="$("$host" --root "$ROOT" --game "$GAME_DIR" --print-game-build)" && [ -n "$GAME_BUILD" ] \
            || { say "build.sh: $host could not name the build folder of $GAME_DIR"; return 1; }
    fi
    case "$GAME_DIR/" in "$real_root"/*) GAME_SRC="${GAME_DIR#"$real_root"/}" ;; *) GAME_SRC="$GAME_DIR" ;; esac
    GAME_BUILD_REL="${GAME_BUILD#"$ROOT"/}"
    # the host's --game: none for the sample, so a later --root (the tests') still picks its game/ too
    GAME_FLAG=(); [ "$GAME_BUILD" = "$BUILD_DIR/game" ] || GAME_FLAG=(--game "$GAME_DIR")
    GAME_DIST_BUILD="$GAME_BUILD/dist"
    if [ "$GAME_BUILD" = "$BUILD_DIR/game" ]; then GAME_DIST_BUILD="$BUILD_DIR/dist"; fi
}
# The first argument of a command, when it is a folder (not a flag), is the game: shift it off.
# Used as: game_arg "$@" && shift $GAME_ARGS
game_arg() {
    GAME_ARGS=0
    if [ $# -gt 0 ] && [[ "$1" != -* ]]; then set_game "$1" || return 1; GAME_ARGS=1; return 0; fi
    set_game
}
# The game's include folders: its own (state.h, game.h), then its build folder (state_types.inc).
game_includes() { echo "-I$GAME_SRC -I$GAME_BUILD_REL -iquote $GAME_SRC"; }
# The layout stamp of a release build (the development build's is the host's: platform/live/plan.cpp), one word a
# line. The distro's python3 when there is one: a version manager's shim in front of it costs a few hundred ms.
layout_stamp_cmd() {  # compiler [types file, relative to the project]
    local py=python3
    [ -x /usr/bin/python3 ] && py=/usr/bin/python3
    printf '%s\n' "$py" tools/layout_stamp.py "--types=${2:-$GAME_BUILD/state_types.inc}" "$1" "$GAME_SRC/state.h" \
        -std=c++17 -Itinyheaders -Iplatform/include "-I$GAME_SRC" -DTH_MATH_NO_MATH_H
}
layout_stamp() {  # compiler: the layout stamp of GAME_DIR/state.h (and GAME_BUILD/state_types.inc)
    mkdir -p "$GAME_BUILD"
    local cmd
    mapfile -t cmd < <(layout_stamp_cmd "$1")
    "${cmd[@]}"
}
# ---------------------------------------------------------------- the game library
# The game library's build is the host's (`build/host --build-game`: platform/live/plan.cpp plans it, build.cpp
# compiles and links it - the same code a save runs in the host): its roots (the .cpp files no other .cpp of the
# folder includes) packed in byte order into chunks of at most GAME_CHUNK_LINES lines, each a translation unit of
# its own with its own object (<game build>/chunks/); build/tinyheaders/tinyheaders.o at -O2 and the layout stamp,
# cached by the content of their inputs; a chunk compiled when what its last compile read changed, the library
# linked when a chunk was or the link differs; nothing stale, nothing runs ("game: up to date"). docs/design.md,
# "What a save compiles". A release compiles all the roots as one translation unit (game_unity_file).
host_game() {  # host flags...: the host asked about GAME_DIR
    local host; host="$(engine_host)" || return 1
    "$host" --root "$ROOT" ${GAME_FLAG[@]+"${GAME_FLAG[@]}"} "$@"
}
# The whole game as one translation unit, for a release: prints the file's path (<game build>/unity.cpp). The
# checkout's host: the Windows leg builds its game with BUILD_DIR pointing elsewhere.
game_unity_file() { ENGINE_HOST="${ENGINE_HOST:-$ROOT/build/host}" host_game --write-unity; }
cmd_game() {
    [ -n "${GAME_DIR:-}" ] || set_game || return 1
    host_game --build-game && compile_db   # the game's entries carry its current layout stamp
}

# The host's files for one operating system: every .cpp of platform/ and its module folders but the other
# backends behind os/os.h and os_template.cpp (where a new port starts; compiled only by the test below,
# test_os_template). The same list as CMakeLists.txt's ENGINE_PLATFORM_SOURCES.
PLATFORM_MODULES="os core services session live devtools"
platform_sources() {  # linux|win32
    local f
    for f in platform/*.cpp $(for m in $PLATFORM_MODULES; do echo "platform/$m/"*.cpp; done); do
        case "$f" in
            platform/os/os_template.cpp) continue ;;
            platform/os/os_linux.cpp) [ "$1" = linux ] || continue ;;
            platform/os/os_win32*) [ "$1" = win32 ] || continue ;;
            platform/os/os_web.cpp) [ "$1" = web ] || continue ;;
        esac
        echo "$f"
    done
}

# ---------------------------------------------------------------- the CMake build
# The host, stb's implementations, the tools, the unit tests and the C++ benchmarks are described once, in
# CMakeLists.txt; a preset of CMakePresets.json names each way to build them (dev: build/host, build/tools/,
# build/tests/normal/; asan: build/asan/host, build/tests/asan/). Ninja decides what is stale from the compiler's
# dependency files: nothing changed costs a glance at the dates, a saved .cpp one compile and the link.
# The compiler launcher of every build (CMAKE_<LANG>_COMPILER_LAUNCHER): ENGINE_COMPILER_LAUNCHER when set (ccache,
# sccache, distcc, icecc: docs/layout.md, "Builds on more than one machine"), else ccache when it is installed.
# ccache hashes the folder a compile runs in (its default with -g): an object's debug info names the folder it was
# compiled in, and gdb reads the sources from there, so a copy of the project (the tests make such copies) must
# never be handed a game object compiled in another folder: gdb would list the other folder's text. (The tests
# build a copy's host and tools with CCACHE_NOHASHDIR=1: identical text, nobody debugs those.)
compiler_launcher() {   # after cmd_deps, which installs ccache
    if [ -n "${ENGINE_COMPILER_LAUNCHER+x}" ]; then echo "$ENGINE_COMPILER_LAUNCHER"
    elif command -v ccache >/dev/null 2>&1; then echo ccache; fi
}
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"   # with CCACHE_NOHASHDIR=1 (the tests' copies) folders share
cmake_configure() {  # preset: configure its build tree when it has none or the presets changed (CMake itself
    # configures again when CMakeLists.txt or a glob's files change)
    local dir="$BUILD_DIR/cmake/$1" log="$BUILD_DIR/cmake/$1.configure.log" launcher="" want
    want="$(compiler_launcher)"
    [ -f "$dir/CMakeCache.txt" ] && launcher="$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$dir/CMakeCache.txt")"
    [ -f "$dir/build.ninja" ] && [ "$dir/CMakeCache.txt" -nt CMakePresets.json ] && [ "$launcher" = "$want" ] && return 0
    mkdir -p "$BUILD_DIR/cmake"
    command -v cmake >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1 \
        || { say "build.sh: cmake and ninja are missing (Debian: apt-get install cmake ninja-build; ./build.sh deps)"; return 1; }
    say "cmake: configuring build/cmake/$1"
    ENGINE_COMPILER_LAUNCHER="$want" cmake --preset "$1" > "$log" 2>&1 || { cat "$log" >&2; say "cmake: configuring the $1 preset failed (above; build/cmake/$1.configure.log)"; return 1; }
}
cmake_build() {  # preset targets...  (KEEP_GOING=1: build every target that can be built, past a failing one)
    local preset="$1"; shift
    cmake_configure "$preset" || return 1
    local targets=() native=()
    [ $# -gt 0 ] && targets=(--target "$@")
    [ -n "${KEEP_GOING:-}" ] && native=(-- -k 0)
    cmake --build "$BUILD_DIR/cmake/$preset" ${targets[@]+"${targets[@]}"} ${native[@]+"${native[@]}"} >&2
}
cmd_host() { cmake_build dev host || { say "host: the build failed (above)"; return 1; }; }
cmd_tools() { cmake_build dev tools || { say "tools: the build failed (above)"; return 1; }; }


cmd_assets() {
    [ -x "$BUILD_DIR/tools/atlas_pack" ] || return 0
    "$BUILD_DIR/tools/atlas_pack" "$ROOT/assets/sprites" "$BUILD_DIR/assets" || return 1
    # sounds from parameter files (the host re-renders a .sfx newer than its WAV by itself)
    [ ! -x "$BUILD_DIR/tools/make_sfx" ] || "$BUILD_DIR/tools/make_sfx" --all "$ROOT/assets/sfx" "$BUILD_DIR/sounds"
}

# compile_commands.json: how every source file is compiled, for clangd and other editors' tools. The build systems
# write the databases (CMake's trees: CMAKE_EXPORT_COMPILE_COMMANDS; a game's build: the host's plan writes
# <game build>/compile_commands.json, platform/live/plan.cpp); tools/compile_db.py merges every one below build/ into
# the project's (compile_db). Two trees are configured by ./build.sh build and host for their entries when they have
# none (compile_db_trees; quick: nothing is built): the fuzz targets' and, once the Windows leg has built SDL2 for
# mingw-w64, the Windows one (the Windows backend and tests/windows/). The web backend's entry comes from the web
# release's tree, once configured.
compile_db() { python3 tools/compile_db.py "$ROOT"; }
compile_db_trees() {
    local sdl
    ! command -v clang++ >/dev/null 2>&1 || cmake_configure fuzz || say "build.sh: no fuzz targets' entries (above)"
    sdl="$(ls -d "$WIN"/sdl2-*/.complete 2>/dev/null | head -n 1)"
    if [ -n "$sdl" ] && [ ! -f "$BUILD_DIR/cmake/mingw/build.ninja" ] && command -v "$WIN_CXX" >/dev/null 2>&1; then
        win_configure "${sdl%/.complete}" > "$BUILD_DIR/cmake/mingw.configure.log" 2>&1 \
            || say "build.sh: no Windows entries (build/cmake/mingw.configure.log)"
    fi
}

cmd_build() {
    cmake_build dev host tools || { say "build: the host or the tools failed (above)"; return 1; }   # one Ninja run
    cmd_assets || { say "build: assets failed"; return 1; }
    compile_db_trees
    # The game library (nothing is compiled when nothing changed: "game: up to date").
    [ -n "${GAME_DIR:-}" ] || set_game || return 1
    cmd_game || { say "build: game failed"; return 1; }   # (and the editor database: compile_db)
}

cmd_run() {  # [game folder] [host flags]
    game_arg "$@" || exit 2; shift "$GAME_ARGS"
    cmd_deps || exit 1
    cmd_build || exit 1
    say "run: build/host --root $ROOT --game $GAME_DIR $*"
    exec "$BUILD_DIR/host" --root "$ROOT" ${GAME_FLAG[@]+"${GAME_FLAG[@]}"} "$@"
}

# ./build.sh new NAME|PATH: a new game folder from tools/template/ (state.h, game.cpp: a moving sprite, text, a
# sound, a TWEAK and a save; assets/ with its own sprite and sound, and the empty folders for more), ready to
# run and edit live. A relative PATH is from where the command was typed.
cmd_new() {
    [ $# = 1 ] && [[ "$1" != -* ]] || { say "usage: ./build.sh new NAME|PATH"; return 2; }
    local d="$1" name f
    case "$d" in /*) ;; *) d="$CALLER_DIR/$d" ;; esac
    name="$(basename "$d")"
    [[ "$name" =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]*$ ]] || { say "new: '$name' is not a name for a game (letters, digits, _ . -)"; return 2; }
    if [ -e "$d" ] && [ -n "$(ls -A "$d" 2>/dev/null)" ]; then say "new: $d already exists and is not empty"; return 1; fi
    mkdir -p "$d/assets/sprites" "$d/assets/sfx" "$d/assets/sounds" "$d/assets/fonts" || return 1
    for f in state.h game.cpp; do
        sed -e "s|@NAME@|$name|g" -e "s|@FOLDER@|$1|g" "tools/template/$f" > "$d/$f" || return 1
    done
    # its own art and sound (the engine's assets/ is the fallback for the names it does not have)
    cp tools/template/assets/sprites/ship.png "$d/assets/sprites/" && cp tools/template/assets/sfx/bounce.sfx "$d/assets/sfx/" || return 1
    say "new: made $d (state.h, game.cpp, assets/sprites/ship.png, assets/sfx/bounce.sfx)"
    local cmd="./build.sh"; [ "$CALLER_DIR" = "$ROOT" ] || cmd="$ROOT/build.sh"
    say "new: run it with   $cmd run $1   and edit $1/game.cpp while it runs (docs/game_api.md)"
}

# ./build.sh debug [host flags]: the host under gdb with tools/gdb_engine.py (docs/debugging.md): the watchdog's
# signal passed silently, no fork/vfork lines, pending breakpoints, source re-read after each reload, printers
# for v2, handles and entities. lldb where there is no gdb. GDB_FLAGS: more gdb options (the tests: -batch -x ...).
cmd_debug() {  # [game folder] [host flags]
    game_arg "$@" || exit 2; shift "$GAME_ARGS"
    cmd_deps || exit 1
    cmd_build || exit 1
    if command -v gdb >/dev/null 2>&1; then
        [ -n "${GDB_FLAGS:-}" ] || say "debug: set breakpoints (break game_update), then run; docs/debugging.md"
        # shellcheck disable=SC2086
        exec gdb -q -x "$ROOT/tools/gdb_engine.py" ${GDB_FLAGS:-} --args "$BUILD_DIR/host" --root "$ROOT" ${GAME_FLAG[@]+"${GAME_FLAG[@]}"} "$@"
    elif command -v lldb >/dev/null 2>&1; then
        exec lldb -o "process handle SIGUSR2 --stop false --notify false --pass true" -- "$BUILD_DIR/host" --root "$ROOT" ${GAME_FLAG[@]+"${GAME_FLAG[@]}"} "$@"
    fi
    say "debug: no gdb (sudo apt-get install gdb)"; exit 1
}

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

# ---------------------------------------------------------------- windows leg
# The Windows build, checked on Linux: host and game cross-built with mingw-w64 (the game DLL with
# clang++ --target=x86_64-w64-mingw32, which also writes a PDB), SDL2 cross-built from Debian's own
# source package and cached under build/win/, every test run under wine with SDL's offscreen driver.
WINDOWS_PACKAGES="g++-mingw-w64-x86-64-win32 wine wine64 dpkg-dev"
WIN="$BUILD_DIR/win"
WIN_CXX="x86_64-w64-mingw32-g++"
# SDL2 for the host: video (offscreen + windows), render (software), events, gamecontroller, audio,
# threads, timers; no GL/GLES/Vulkan/Direct3D/HIDAPI. Static, so host.exe is one file.
SDL2_WIN_OPTIONS="--disable-shared --enable-static --disable-video-opengl --disable-video-opengles --disable-video-vulkan --disable-render-d3d --disable-hidapi --disable-haptic --disable-sensor --disable-power"

win_now() { date +%s.%N; }
win_took() { awk -v a="$1" -v b="$(win_now)" 'BEGIN { printf "%.1f", b - a }'; }
win_time() {  # label start: one line in build/win/timings.txt and on stderr
    local t; t="$(win_took "$2")"
    echo "$1 ${t}s" >> "$WIN/timings.txt"; say "windows: $1 ${t}s"
}

win_deps() {
    local missing; missing="$(missing_packages "$WINDOWS_PACKAGES")"
    [ -z "$missing" ] && return 0
    [ "$(id -u)" = 0 ] || { say "windows: missing packages:$missing (sudo apt-get install -y$missing)"; return 1; }
    say "windows: installing$missing"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $missing
}

# apt-get source needs a deb-src entry; add one for the mirror the machine already uses.
win_deb_src() {
    local list=/etc/apt/sources.list.d/engine-deb-src.sources mirror codename
    [ -f "$list" ] && return 0
    mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)"
    [ -n "$mirror" ] || mirror="$(awk '$1 == "deb" && $2 !~ /^\[/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)"
    [ -n "$mirror" ] || mirror="http://deb.debian.org/debian"
    codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$mirror" "$codename" > "$list"
    apt-get update -qq
}

# Debian's own source of the installed SDL2 (the Windows and web builds compile it for their targets),
# unpacked into WORK/src; prints that folder.
sdl2_source() {  # work version label
    local work="$1" ver="$2"
    win_deb_src >&2 || { say "$3: could not add a deb-src entry"; return 1; }
    rm -rf "$work"; mkdir -p "$work"
    ( cd "$work" && apt-get source -qq --download-only "libsdl2=$ver" ) >&2 || { say "$3: apt-get source libsdl2=$ver failed"; return 1; }
    dpkg-source -x --no-check "$work"/libsdl2_*.dsc "$work/src" > "$work/extract.log" 2>&1 || { say "$3: dpkg-source failed (see $work/extract.log)"; return 1; }
    echo "$work/src"
}

# Prints the install folder of SDL2 for mingw, building it first if this version+options is not cached.
win_sdl2() {
    local ver upstream hash dir src work
    ver="$(dpkg-query -W -f='${Version}' libsdl2-dev 2>/dev/null)"
    [ -n "$ver" ] || { say "windows: libsdl2-dev is not installed (its version picks the SDL2 source)"; return 1; }
    upstream="${ver%%+*}"; upstream="${upstream%%-*}"
    hash="$(echo "$ver $SDL2_WIN_OPTIONS $($WIN_CXX -dumpversion)" | cksum | cut -d' ' -f1)"
    dir="$WIN/sdl2-$upstream-$hash"
    if [ -f "$dir/.complete" ]; then echo "$dir"; return 0; fi
    local t0; t0="$(win_now)"
    work="$WIN/sdl2-work"; rm -rf "$dir"
    src="$(sdl2_source "$work" "$ver" windows)" || return 1
    mkdir -p "$work/obj"
    # shellcheck disable=SC2086
    if ! ( cd "$work/obj" && "$src/configure" --host=x86_64-w64-mingw32 --prefix="$dir" $SDL2_WIN_OPTIONS > ../configure.log 2>&1 \
            && make -j"$(nproc)" > ../make.log 2>&1 && make install > ../install.log 2>&1 ); then
        say "windows: SDL2 cross build failed (logs in $work)"; rm -rf "$dir"; return 1
    fi
    touch "$dir/.complete"; rm -rf "$work"
    win_time "sdl2_build" "$t0"
    echo "$dir"
}

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

# The game DLL as the host on Windows rebuilds it: CMakeLists.txt's game_dll target (the mingw-game preset:
# clang for mingw-w64 with lld, a PDB named anew each build, the tinyheaders and the layout stamp only when they
# change) in a tree of its own, <out>/cmake-win/, and <out>/game.dll. The lock file exists while it builds: the
# host waits for it to vanish before copying the library.
cmd_game_win() {
    local B="$BUILD_DIR/${GAME_BUILD_REL#build/}"   # BUILD_DIR may be another folder here (the test leg's)
    local tree="$B/cmake-win" lock="$B/build.lock" host out rc=1
    host="$(ENGINE_HOST="${ENGINE_HOST:-$ROOT/build/host}" engine_host)" || return 1   # the checkout's, not BUILD_DIR's
    mkdir -p "$B"
    echo building > "$lock"
    if [ -f "$tree/build.ninja" ] || out="$(cmake --preset mingw-game -B "$tree" -DENGINE_GAME_DIR="$GAME_DIR" \
            -DENGINE_GAME_BUILD_DIR="$GAME_BUILD" -DENGINE_GAME_OUT_DIR="$B" -DENGINE_GAME_HOST="$host" 2>&1)" \
            || { echo "$out"; false; }; then
        cmake --build "$tree" --target game_dll; rc=$?
    fi
    rm -f "$lock"
    return $rc
}

# Targets of a Windows tree of CMakeLists.txt, configured first when it is new, names another SDL2 or the presets
# changed. The mingw preset's (g++): host.exe (every platform file but the Linux backend, stb's implementations,
# SDL2 linked statically; the SDL2 built above is its SDL2_DIR) and the leg's test programs, test_win_smoke,
# test_os_win32 and win_launch; the mingw-tests preset's (clang, lld): testlib1 and testlib2 with their PDBs. All
# into build/win/. (win_configure alone: the editor database's mingw tree.)
win_configure() {  # sdl2-dir [preset; default mingw]
    local sdl="$1" preset="${2:-mingw}" dir="$BUILD_DIR/cmake/${2:-mingw}"
    if [ ! -f "$dir/build.ninja" ] || ! grep -qxF "SDL2_DIR:PATH=$sdl/lib/cmake/SDL2" "$dir/CMakeCache.txt" \
            || [ CMakePresets.json -nt "$dir/CMakeCache.txt" ]; then
        cmake --preset "$preset" --no-warn-unused-cli -DSDL2_DIR:PATH="$sdl/lib/cmake/SDL2" || return 1
    fi
}
win_cmake() {  # preset sdl2-dir target...
    local preset="$1" sdl="$2"; shift 2
    win_configure "$sdl" "$preset" && cmake --build "$BUILD_DIR/cmake/$preset" --target "$@"
}

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
        if selected "$ROOT/tests/windows/test_win_e2e.py"; then
            t0="$(win_now)"
            WIN_DIR="$WIN" WIN_GAME_DLL="$WIN/e2e-lib/game/game.dll" PROJECT_ROOT="$ROOT" \
                timeout -k 5 600 python3 "$ROOT/tests/windows/test_win_e2e.py" > "$BUILD_DIR/tests/logs/windows-e2e.log" 2>&1
            record_result "windows-e2e" "$BUILD_DIR/tests/logs/windows-e2e.log" $?
            win_time "e2e_run" "$t0"
        fi
        if selected "$ROOT/tests/windows/test_win_restart.py"; then
            t0="$(win_now)"
            WIN_DIR="$WIN" WIN_GAME_DLL="$WIN/e2e-lib/game/game.dll" PROJECT_ROOT="$ROOT" \
                timeout -k 5 600 python3 "$ROOT/tests/windows/test_win_restart.py" > "$BUILD_DIR/tests/logs/windows-restart.log" 2>&1
            record_result "windows-restart" "$BUILD_DIR/tests/logs/windows-restart.log" $?
            win_time "restart_run" "$t0"
        fi
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
}

cmd_test_windows() {
    cmd_deps || exit 1
    cmd_test_windows_leg
    [ -n "$FAILED_NAMES" ] && say "failed:$FAILED_NAMES"
    echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
    [ "$TOTAL_FAIL" = 0 ]
}

# ---------------------------------------------------------------- release
# ./build.sh dist: the game for players in dist/<GAME_NAME>-linux-x86_64/ (the executable, game.pak, README.txt)
# and a .tar.gz of that folder. The game is linked into a release host (platform/release.cpp stands in for the
# development-only files) at -O2 with TWEAK sites as literals; game.pak holds the atlas, the baked font
# and the decoded sounds, so the player needs no tools, sources or compiler. GAME_NAME is the game's name (set_game; the
# sample's is SAMPLE_NAME).
SYSTEM_FONT="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"   # the text font when assets/fonts/default.ttf is absent

# A release executable is CMake's (tools/cmake/release.cmake: the development-only files left out, the flags, the
# game's one object, the link): a build tree per game and preset, <dist build>/cmake/<preset>/, configured with
# the game's folder, name, build folder and unity file; Ninja decides what is stale.
release_build() {  # label preset executable [-D...]: the executable's path in the tree, built
    local label="$1" preset="$2" dir="$GAME_DIST_BUILD/cmake/$2" exe unity before=""
    exe="$dir/$3"; shift 3
    unity="$(game_unity_file)" || { say "$label: the game's unity file was not written (above)"; return 1; }
    case "$unity" in /*) ;; *) unity="$ROOT/$unity" ;; esac
    mkdir -p "$dir"
    ENGINE_COMPILER_LAUNCHER="$(compiler_launcher)" cmake --preset "$preset" -B "$dir" -DENGINE_RELEASE_GAME="$GAME_DIR" \
        -DENGINE_RELEASE_NAME="$GAME_NAME" -DENGINE_RELEASE_GAME_BUILD="$GAME_BUILD" -DENGINE_RELEASE_UNITY="$unity" "$@" \
        > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log" >&2; say "$label: configuring $dir failed (above)"; return 1; }
    [ -f "$exe" ] && before="$(stat -c %y "$exe")"
    say "$label: building the game and the release host (-O2) in ${dir#"$ROOT"/}"
    cmake --build "$dir" >&2 || { say "$label: the build failed (above)"; return 1; }
    [ "$before" = "$(stat -c %y "$exe")" ] && say "$label: the executable is up to date"
    echo "$exe"
}

# game.pak: what the release reads - the atlas manifest and pages (not the packer's cache), the text font
# baked by font_bake, every sound decoded by sound_decode (the samples the mixer plays). The sample's are
# the engine's assets/ (they are NEON SWARM's art). Another game's are its own folder's assets/ and, of the
# engine's shared ones, only those whose name its sources spell as a string literal ("player/ship",
# "ui/start": how game_sprite_id and game_sound_id are called), unless it has its own of that name.
dist_archive() {  # out
    local stage="$BUILD_DIR/dist/stage" font f rel name
    rm -rf "$stage"; mkdir -p "$stage/atlas" "$stage/fonts" "$stage/sounds" "$stage/maps"
    if [ "$GAME_BUILD" = "$BUILD_DIR/game" ]; then
        [ -f "$BUILD_DIR/assets/atlas.txt" ] || { say "dist: no atlas (build/assets/atlas.txt): run ./build.sh assets"; return 1; }
        cp "$BUILD_DIR/assets/atlas.txt" "$BUILD_DIR"/assets/*.png "$stage/atlas/" || return 1
        ! grep -q '^anim' "$BUILD_DIR/assets/anims.txt" 2>/dev/null || cp "$BUILD_DIR/assets/anims.txt" "$stage/atlas/" || return 1
        dist_sounds "$stage" assets "" "$BUILD_DIR/sounds" || return 1
        dist_maps "$stage" assets "" || return 1
    else
        dist_game_assets "$stage" || return 1
    fi
    font="$GAME_DIR/assets/fonts/default.ttf"; [ -f "$font" ] || font="assets/fonts/default.ttf"; [ -f "$font" ] || font="$SYSTEM_FONT"
    "$BUILD_DIR/tools/font_bake" "$font" "$stage/fonts/default.thfb" || { say "dist: $font does not bake"; return 1; }
    "$BUILD_DIR/tools/pack_assets" "$1" atlas/="$stage/atlas" fonts/="$stage/fonts" sounds/="$stage/sounds" \
        maps/="$stage/maps" > /dev/null
}

# The sounds of one assets/ folder into stage/sounds/<name>.pcm: a sound is <dir>/sfx/<name>.sfx (rendered
# to <rendered>/<name>.wav) or <dir>/sounds/<name>.wav|.ogg; the .sfx wins, as in the host. `only`: a file
# of names, one a line, to take (empty: all); a name already staged (the game's own) is left as it is.
dist_sounds() {  # stage assets-dir only-file rendered-dir
    local f rel name
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        rel="${f#"$2"/sounds/}"; name="${rel%.*}"
        [ -f "$2/sfx/$name.sfx" ] || [ -f "$1/sounds/$name.pcm" ] && continue
        [ -z "$3" ] || grep -qxF "$name" "$3" || continue
        mkdir -p "$(dirname "$1/sounds/$name.pcm")"
        "$BUILD_DIR/tools/sound_decode" "$f" "$1/sounds/$name.pcm" || { say "dist: $f does not decode"; return 1; }
    done < <(find "$2/sounds" -type f \( -iname '*.wav' -o -iname '*.ogg' \) 2>/dev/null | sort)
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        rel="${f#"$2"/sfx/}"; name="${rel%.sfx}"
        [ -f "$1/sounds/$name.pcm" ] && continue
        [ -z "$3" ] || grep -qxF "$name" "$3" || continue
        mkdir -p "$(dirname "$1/sounds/$name.pcm")"
        [ -f "$4/$name.wav" ] || { say "dist: $f was not rendered ($4/$name.wav)"; return 1; }
        "$BUILD_DIR/tools/sound_decode" "$4/$name.wav" "$1/sounds/$name.pcm" || { say "dist: $4/$name.wav does not decode"; return 1; }
    done < <(find "$2/sfx" -type f -name '*.sfx' 2>/dev/null | sort)
}

# The Tiled maps of one assets/ folder into stage/maps/: every .tmj (with `only`, a file of names, those it lists:
# the engine's maps a game spells out) and the external tilesets (.tsj) beside them, not the .tmx sources; a name
# already staged (the game's own) is left as it is. Their tileset images are sprites, packed with the atlas.
dist_maps() {  # stage assets-dir only-file
    local f rel
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        rel="${f#"$2"/maps/}"
        [ -f "$1/maps/$rel" ] && continue
        [ -z "$3" ] || [ "${rel%.tsj}" != "$rel" ] || grep -qxF "${rel%.tmj}" "$3" || continue
        mkdir -p "$(dirname "$1/maps/$rel")" && cp "$f" "$1/maps/$rel" || return 1
    done < <(find "$2/maps" -type f \( -name '*.tmj' -o -name '*.tsj' \) 2>/dev/null | sort)
}

dist_game_assets() {  # stage
    local stage="$1" own="$GAME_DIR/assets" f rel name
    # the names the game's sources spell out, as string literals outside comments
    cat "$GAME_DIR"/*.cpp "$GAME_DIR"/*.h 2>/dev/null | python3 -c 'import re, sys
text = re.sub(r"//[^\n]*|/\*.*?\*/", "", sys.stdin.read(), flags=re.S)
print("\n".join(sorted(set(re.findall(r"\"([A-Za-z0-9_./-]+)\"", text)))))' > "$stage/names" || return 1
    # sprites: the game's own, then the engine's it names and does not have, packed into an atlas of their own
    mkdir -p "$stage/sprites" "$stage/atlas-out"
    [ -d "$own/sprites" ] && { cp -r "$own/sprites/." "$stage/sprites/" || return 1; }
    while IFS= read -r f; do
        rel="${f#assets/sprites/}"; name="${rel%.*}"
        grep -qxF "$name" "$stage/names" && [ ! -f "$stage/sprites/$rel" ] || continue
        mkdir -p "$(dirname "$stage/sprites/$rel")"
        cp "$f" "$stage/sprites/$rel" || return 1
        [ ! -f "assets/sprites/$name.pivot" ] || cp "assets/sprites/$name.pivot" "$stage/sprites/$name.pivot" || return 1
    done < <(find assets/sprites -type f \( -name '*.png' -o -name '*.aseprite' -o -name '*.ase' \) 2>/dev/null | sort)
    "$BUILD_DIR/tools/atlas_pack" --no-cache "$stage/sprites" "$stage/atlas-out" > /dev/null || { say "dist: atlas_pack failed"; return 1; }
    cp "$stage/atlas-out/atlas.txt" "$stage/atlas/" && find "$stage/atlas-out" -name 'atlas_*.png' -exec cp {} "$stage/atlas/" \; || return 1
    # the Aseprite files' frame durations and tags, when there are any
    ! grep -q '^anim' "$stage/atlas-out/anims.txt" || cp "$stage/atlas-out/anims.txt" "$stage/atlas/" || return 1
    # sounds: the game's own (its .sfx rendered here), then the engine's it names
    if [ -d "$own/sfx" ]; then
        "$BUILD_DIR/tools/make_sfx" --all "$own/sfx" "$stage/rendered" > /dev/null || { say "dist: make_sfx failed on $own/sfx"; return 1; }
    fi
    dist_sounds "$stage" "$own" "" "$stage/rendered" || return 1
    dist_sounds "$stage" assets "$stage/names" "$BUILD_DIR/sounds" || return 1
    # maps: the game's own, then the engine's it names
    dist_maps "$stage" "$own" "" && dist_maps "$stage" assets "$stage/names"
}

# README.txt for players: the game folder's README.txt, the sample's docs/player_readme.txt, or else
# tools/template/README.txt with the game's name. Lines starting "@linux " or "@windows " are kept (without the
# mark) for that platform only; @GAME@ is the game's name (@TITLE@ and @UNDERLINE@ the template's heading).
player_readme() {  # linux|windows out
    local src="tools/template/README.txt" line
    if [ -f "$GAME_DIR/README.txt" ]; then src="$GAME_DIR/README.txt"
    elif [ "$GAME_BUILD" = "$BUILD_DIR/game" ]; then src="docs/player_readme.txt"; fi
    line="$(printf '%*s' "${#GAME_NAME}" '' | tr ' ' '=')"
    sed -e "/^@$1 /s/^@$1 //" -e '/^@[a-z]* /d' -e "s/@GAME@/$GAME_NAME/g" -e "s/@TITLE@/$GAME_NAME/g" \
        -e "s/@UNDERLINE@/$line/g" "$src" > "$2"
}

cmd_dist() {
    cmd_deps || return 1
    cmd_tools || { say "dist: tools failed"; return 1; }
    cmd_assets || { say "dist: assets failed"; return 1; }
    local name="$GAME_NAME-linux-x86_64" out="$ROOT/dist/$GAME_NAME-linux-x86_64"
    local exe
    exe="$(release_build dist release "$GAME_NAME")" || return 1
    dist_archive "$GAME_DIST_BUILD/game.pak" || return 1
    rm -rf "$out" "$ROOT/dist/$name.tar.gz"; mkdir -p "$out"
    cp "$exe" "$GAME_DIST_BUILD/game.pak" "$out/" || return 1
    player_readme linux "$out/README.txt" || return 1
    tar -C "$ROOT/dist" -czf "$ROOT/dist/$name.tar.gz.tmp" "$name" && mv -f "$ROOT/dist/$name.tar.gz.tmp" "$ROOT/dist/$name.tar.gz" || return 1
    say "dist: $out/ ($(du -sk "$out" | cut -f1) KB) and dist/$name.tar.gz ($(($(stat -c %s "$ROOT/dist/$name.tar.gz") / 1024)) KB)"
}

# ROOT/NAME.zip of the folder ROOT/NAME (python's zipfile: no zip program needed), written to a temporary
# name and renamed into place.
dist_zip() {  # root name
    python3 - "$1" "$2" <<'EOF'
import os, sys, zipfile
root, name = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(os.path.join(root, name + ".zip.tmp"), "w", zipfile.ZIP_DEFLATED) as z:
    for f in sorted(os.listdir(os.path.join(root, name))):
        z.write(os.path.join(root, name, f), name + "/" + f)
os.replace(os.path.join(root, name + ".zip.tmp"), os.path.join(root, name + ".zip"))
EOF
}

# ---------------------------------------------------------------- release for Windows
# ./build.sh dist-windows: the same release cross-built with mingw-w64, in dist/<GAME_NAME>-windows-x86_64/:
# <GAME_NAME>.exe (the game and the release host, -O2, TWEAK literals, libstdc++/libgcc static, a GUI
# program: no console window opens beside the game), SDL2.dll, the same game.pak as on Linux and
# README.txt; plus a .zip of the folder. The executable imports SDL2.dll and Windows' own DLLs only.

# <out-folder>/<GAME_NAME>-windows-x86_64/ and its .zip (python's zipfile: no zip program needed).
# <GAME_NAME>.exe and SDL2.dll are the mingw-release preset's (tools/cmake/release.cmake), from the SDL2 built above.
win_dist() {  # sdl2-dir out-folder
    local name="$GAME_NAME-windows-x86_64" out="$2/$GAME_NAME-windows-x86_64" exe
    mkdir -p "$WIN"
    exe="$(release_build dist-windows mingw-release "$GAME_NAME.exe" -DENGINE_RELEASE_SDL2="$1")" || return 1
    dist_archive "$WIN/game.pak" || return 1
    rm -rf "$out" "$2/$name.zip"; mkdir -p "$out"
    cp "$exe" "$(dirname "$exe")/SDL2.dll" "$WIN/game.pak" "$out/" || return 1
    player_readme windows "$out/README.txt" || return 1
    dist_zip "$2" "$name" || { say "dist-windows: cannot write $2/$name.zip"; return 1; }
    say "dist-windows: $out/ ($(du -sk "$out" | cut -f1) KB) and $name.zip ($(($(stat -c %s "$2/$name.zip") / 1024)) KB)"
}

cmd_dist_windows() {
    cmd_deps || return 1
    win_deps || return 1
    cmd_tools || { say "dist-windows: tools failed"; return 1; }
    cmd_assets || { say "dist-windows: assets failed"; return 1; }
    local sdl; sdl="$(win_sdl2)" || return 1
    win_dist "$sdl" "$ROOT/dist"
}

# ---------------------------------------------------------------- release for the web
# ./build.sh dist-web: the same release built for WebAssembly with Emscripten (Debian's package), in
# dist/<GAME_NAME>-web/: index.html (platform/os/web/shell.html: the canvas, a loading bar, the report of a
# trap), index.js, index.wasm and index.data (game.pak, preloaded into the page's file system); plus a .zip
# of the folder. The host is the release's, with platform/os/os_web.cpp behind os.h; SDL2 is Debian's source
# built once for Emscripten into build/web/ (Emscripten's own SDL port downloads, which fails offline).
WEB="$BUILD_DIR/web"
WEB_PACKAGES="emscripten cmake dpkg-dev"
SDL2_WEB_OPTIONS="-DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_PTHREADS=OFF -DSDL_THREADS=OFF -DSDL_TEST=OFF"
# emcc runs on node and needs Debian's acorn, which a node from elsewhere on PATH does not find
web_env() { export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"; }

# Prints the install folder of SDL2 for Emscripten, building it first if this version+options is not cached.
web_sdl2() {
    local ver upstream hash dir src work t0
    ver="$(dpkg-query -W -f='${Version}' libsdl2-dev 2>/dev/null)"
    [ -n "$ver" ] || { say "web: libsdl2-dev is not installed (its version picks the SDL2 source)"; return 1; }
    upstream="${ver%%+*}"; upstream="${upstream%%-*}"
    hash="$(echo "$ver $SDL2_WEB_OPTIONS $(emcc -dumpversion 2>/dev/null)" | cksum | cut -d' ' -f1)"
    dir="$WEB/sdl2-$upstream-$hash"
    if [ -f "$dir/.complete" ]; then echo "$dir"; return 0; fi
    t0=$EPOCHREALTIME
    work="$WEB/sdl2-work"; rm -rf "$dir"
    src="$(sdl2_source "$work" "$ver" web)" || return 1
    say "web: building SDL2 $upstream for Emscripten (once; about 3 minutes)"
    # shellcheck disable=SC2086
    if ! ( emcmake cmake -S "$src" -B "$work/obj" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$dir" $SDL2_WEB_OPTIONS \
                > "$work/configure.log" 2>&1 \
            && cmake --build "$work/obj" -j"$(nproc)" > "$work/make.log" 2>&1 \
            && cmake --install "$work/obj" > "$work/install.log" 2>&1 ); then
        say "web: SDL2 build failed (logs in $work)"; rm -rf "$dir"; return 1
    fi
    touch "$dir/.complete"; rm -rf "$work"
    say "web: SDL2 built in $(( (${EPOCHREALTIME//[.,]/} - ${t0//[.,]/}) / 1000000 )) s"
    echo "$dir"
}

# index.html + .js + .wasm + .data: the web preset's (tools/cmake/release.cmake: Debian's Emscripten, its CMake
# toolchain file), linked with the SDL2 above; game.pak is preloaded into the page's file system.
WEB_TOOLCHAIN="/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake"
cmd_dist_web() {
    cmd_deps || return 1
    cmd_deps "$WEB_PACKAGES" || return 1
    web_env
    cmd_tools || { say "dist-web: tools failed"; return 1; }
    cmd_assets || { say "dist-web: assets failed"; return 1; }
    local sdl name="$GAME_NAME-web" out="$ROOT/dist/$GAME_NAME-web" page web_out
    [ -f "$WEB_TOOLCHAIN" ] || { say "dist-web: no $WEB_TOOLCHAIN (Debian's emscripten package)"; return 1; }
    sdl="$(web_sdl2)" || return 1
    mkdir -p "$GAME_DIST_BUILD"
    dist_archive "$GAME_DIST_BUILD/game.pak" || return 1
    page="$(release_build dist-web web index.html -DENGINE_RELEASE_SDL2="$sdl" -DENGINE_RELEASE_PAK="$GAME_DIST_BUILD/game.pak")" \
        || return 1
    web_out="$(dirname "$page")"
    rm -rf "$out" "$ROOT/dist/$name.zip"; mkdir -p "$out"
    cp "$web_out"/index.html "$web_out"/index.js "$web_out"/index.wasm "$web_out"/index.data "$out/" || return 1
    dist_zip "$ROOT/dist" "$name" || return 1
    say "dist-web: $out/ ($(du -sk "$out" | cut -f1) KB) and dist/$name.zip ($(($(stat -c %s "$ROOT/dist/$name.zip") / 1024)) KB)"
}

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

# ---------------------------------------------------------------- main
cmd="${1:-run}"; [ $# -gt 0 ] && shift
case "$cmd" in
    run|debug|game|game-win|dist|dist-windows) ;;
    *) set_game 2>/dev/null ;;   # the sample, for the commands that take no game folder (if it is there)
esac
case "$cmd" in
    help|-h|--help) usage ;;
    run)    cmd_run "$@" ;;
    debug)  cmd_debug "$@" ;;
    new)    cmd_new "$@" ;;
    host)   cmd_host && compile_db_trees && compile_db ;;
    game)   game_arg "$@" || exit 2; cmd_game ;;
    tools)  cmd_tools ;;
    assets) cmd_assets ;;
    build)  cmd_deps && cmd_build ;;
    test)   cmd_test "$@" ;;
    test-windows) cmd_test_windows ;;
    test-load) cmd_test_load "$@" ;;
    web-driver) cmd_deps "$WEB_TEST_PACKAGES" >&2 && web_node_modules ;;   # for tests/bench/bench_web.py
    test-web) mkdir -p "$BUILD_DIR/tests/logs"; cmd_test_web_leg; echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"; [ "$TOTAL_FAIL" = 0 ] ;;
    game-win) game_arg "$@" || exit 2; cmd_game_win ;;
    bench)  cmd_bench ;;
    dist)   game_arg "$@" || exit 2; cmd_dist ;;
    dist-windows) game_arg "$@" || exit 2; cmd_dist_windows ;;
    dist-web) game_arg "$@" || exit 2; cmd_dist_web ;;
    fuzz)   mkdir -p "$BUILD_DIR/tests/logs"; cmd_fuzz; echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"; [ "$TOTAL_FAIL" = 0 ] ;;
    deps)   cmd_deps ;;
    clean)  rm -rf "$BUILD_DIR" "$ROOT/compile_commands.json" ;;
    *)      say "build.sh: unknown command '$cmd'"; usage >&2; exit 2 ;;
esac
