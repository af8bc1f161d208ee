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
# Tried after DEBIAN_PACKAGES on a machine that lacked some, the first that installs: a newer clang for the game's
# compiles (the host takes the newest clang++-N beside clang++, platform/live/plan.cpp's default_cxx: a save's
# compile is a seventh shorter with clang 22 than with Debian 12's clang 14). Not every mirror has them; none is
# no error.
NEWER_CLANG_PACKAGES="clang-22 clang-19"
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
        if [ -z "${1:-}" ]; then
            local p
            for p in $NEWER_CLANG_PACKAGES; do
                apt-get install -y -qq "$p" >/dev/null 2>&1 && { say "deps: installed $p for the game's compiles"; break; }
            done
        fi
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
# mingw-w64, the Windows ones (the Windows backend and tests/windows/). The web backend's entry comes from the web
# release's tree, once configured. The Windows leg and dist-web merge again when they end.
compile_db() { python3 tools/compile_db.py "$ROOT"; }
compile_db_trees() {
    local sdl
    ! command -v clang++ >/dev/null 2>&1 || cmake_configure fuzz || say "build.sh: no fuzz targets' entries (above)"
    sdl="$(ls -d "$WIN"/sdl2-*/.complete 2>/dev/null | head -n 1)"
    [ -n "$sdl" ] && command -v "$WIN_CXX" >/dev/null 2>&1 || return 0
    local preset   # mingw: host.exe's files and the leg's programs; mingw-tests: the leg's test DLLs (clang)
    for preset in mingw mingw-tests; do
        [ ! -f "$BUILD_DIR/cmake/$preset/build.ninja" ] || continue
        [ "$preset" = mingw ] || command -v clang++ >/dev/null 2>&1 || continue
        win_configure "${sdl%/.complete}" "$preset" > "$BUILD_DIR/cmake/$preset.configure.log" 2>&1 \
            || say "build.sh: no Windows entries of $preset (build/cmake/$preset.configure.log)"
    done
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

# ---------------------------------------------------------------- Windows: SDL2, the mingw trees, the game DLL
# The Windows build, checked on Linux: host and game cross-built with mingw-w64 (the game DLL with clang++
# --target=x86_64-w64-mingw32, which also writes a PDB), SDL2 cross-built from Debian's own source package and cached
# under build/win/; tests/run.sh's leg runs every test under wine with SDL's offscreen driver.
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

# Where SDL2 built for another target is cached: <base>/sdl2-<upstream version>-<a checksum of Debian's version of
# libsdl2-dev, the build's options and its compiler's version> (SDL2_CACHE_DIR; SDL2_DEB_VERSION: Debian's version).
sdl2_cache_dir() {  # label base "options and compiler version"
    SDL2_DEB_VERSION="$(dpkg-query -W -f='${Version}' libsdl2-dev 2>/dev/null)"
    [ -n "$SDL2_DEB_VERSION" ] || { say "$1: libsdl2-dev is not installed (its version picks the SDL2 source)"; return 1; }
    local upstream="${SDL2_DEB_VERSION%%+*}"; upstream="${upstream%%-*}"
    SDL2_CACHE_DIR="$2/sdl2-$upstream-$(echo "$SDL2_DEB_VERSION $3" | cksum | cut -d' ' -f1)"
}

# Prints the install folder of SDL2 for mingw, building it first if this version+options is not cached.
win_sdl2() {
    local ver dir src work
    sdl2_cache_dir windows "$WIN" "$SDL2_WIN_OPTIONS $($WIN_CXX -dumpversion)" || return 1
    ver="$SDL2_DEB_VERSION" dir="$SDL2_CACHE_DIR"
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
    local ver dir src work t0 upstream
    sdl2_cache_dir web "$WEB" "$SDL2_WEB_OPTIONS $(emcc -dumpversion 2>/dev/null)" || return 1
    ver="$SDL2_DEB_VERSION" dir="$SDL2_CACHE_DIR"
    upstream="${ver%%+*}"; upstream="${upstream%%-*}"
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
    compile_db || true   # the editor database gains the web backend's entries (the web tree's)
    say "dist-web: $out/ ($(du -sk "$out" | cut -f1) KB) and dist/$name.zip ($(($(stat -c %s "$ROOT/dist/$name.zip") / 1024)) KB)"
}

# ---------------------------------------------------------------- the test and bench runners
# test, test-windows, test-web, test-load, fuzz and bench run tests/run.sh's functions (a copy of the project
# without its tests/ has none of these commands).
if [ -f "$ROOT/tests/run.sh" ]; then . "$ROOT/tests/run.sh"; fi

# ---------------------------------------------------------------- main
cmd="${1:-run}"; [ $# -gt 0 ] && shift
case "$cmd" in
    test|test-windows|test-load|test-web|web-driver|fuzz|bench)
        declare -F cmd_test > /dev/null || { say "build.sh: $cmd: tests/run.sh is missing (the test and bench runners)"; exit 2; } ;;
esac
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
