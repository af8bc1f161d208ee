# The release executable of one game, for Linux, Windows (mingw-w64) and the web (Emscripten): the game compiled
# as one translation unit with TWEAK sites as literals, linked into the release host (every host file but the
# development-only ones below, -DHOST_RELEASE: platform/release.cpp stands in for them), -O2. CMakeLists.txt
# includes this file when ENGINE_RELEASE_GAME names a game folder, and builds nothing else then.
#
#   cmake --preset release -B <dist build>/cmake/release -DENGINE_RELEASE_GAME=<folder> ...   (Linux)
#   cmake --preset mingw-release ... -DENGINE_RELEASE_SDL2=<SDL2 for mingw-w64>                 (Windows)
#   cmake --preset msvc-release ... -DENGINE_RELEASE_SDL2=<SDL2's VC development package>        (Windows, cl.exe)
#   cmake --preset web ... -DENGINE_RELEASE_SDL2=<SDL2 for Emscripten> -DENGINE_RELEASE_PAK=<game.pak>
#
# ./build.sh dist, dist-windows and dist-web pass these (docs/shipping.md), build.bat dist the msvc-release
# preset's; the presets' defaults are the sample's.
set(ENGINE_RELEASE_NAME "" CACHE STRING "the game's name, the executable's ([a-z0-9_-])")
set(ENGINE_RELEASE_GAME_BUILD "" CACHE PATH "the game's build folder (where build/host --write-unity writes)")
set(ENGINE_RELEASE_UNITY "" CACHE FILEPATH "the game as one translation unit (default: <game build>/unity.cpp)")
set(ENGINE_RELEASE_SDL2 "" CACHE PATH "Windows and the web: the SDL2 built for the target (its install folder)")
set(ENGINE_RELEASE_PAK "" CACHE FILEPATH "the web: game.pak, preloaded into the page's file system")
if(CMAKE_HOST_WIN32)   # build.bat's C:\... paths
    foreach(v ENGINE_RELEASE_GAME ENGINE_RELEASE_GAME_BUILD ENGINE_RELEASE_UNITY ENGINE_RELEASE_SDL2)
        file(TO_CMAKE_PATH "${${v}}" ${v})
    endforeach()
endif()
if(NOT ENGINE_RELEASE_UNITY)
    set(ENGINE_RELEASE_UNITY "${ENGINE_RELEASE_GAME_BUILD}/unity.cpp")
endif()
foreach(v ENGINE_RELEASE_NAME ENGINE_RELEASE_GAME_BUILD)
    if(NOT ${v})
        message(FATAL_ERROR "release: ${v} is not set (./build.sh dist sets it)")
    endif()
endforeach()
if(NOT EXISTS "${ENGINE_RELEASE_UNITY}")
    message(FATAL_ERROR "release: no ${ENGINE_RELEASE_UNITY} (build/host --game <folder> --write-unity writes it)")
endif()
if(MSVC)   # SDL2's VC development package: include\SDL.h, lib\x64\SDL2.lib and SDL2.dll
    if(NOT EXISTS "${ENGINE_RELEASE_SDL2}/include/SDL.h" OR NOT EXISTS "${ENGINE_RELEASE_SDL2}/lib/x64/SDL2.lib")
        message(FATAL_ERROR "release: ENGINE_RELEASE_SDL2 (${ENGINE_RELEASE_SDL2}) holds no include/SDL.h"
            " and lib/x64/SDL2.lib (SDL2's VC development package)")
    endif()
elseif((WIN32 OR EMSCRIPTEN) AND NOT EXISTS "${ENGINE_RELEASE_SDL2}/include/SDL2/SDL.h")
    message(FATAL_ERROR "release: ENGINE_RELEASE_SDL2 (${ENGINE_RELEASE_SDL2}) holds no include/SDL2/SDL.h")
endif()
set(game "${ENGINE_RELEASE_GAME}")
set(name "${ENGINE_RELEASE_NAME}")
set(tree "${CMAKE_CURRENT_BINARY_DIR}")

# The development-only files: develop.cpp, the live/ module (watch, build, reload, library, tweak, the game's
# folder), the F4 panel, the state inspector and the control socket.
file(GLOB ENGINE_DEV_ONLY_SOURCES CONFIGURE_DEPENDS "${ENGINE_DIR}/platform/live/*.cpp")
list(APPEND ENGINE_DEV_ONLY_SOURCES "${ENGINE_DIR}/platform/develop.cpp"
    "${ENGINE_DIR}/platform/devtools/tweak_panel.cpp" "${ENGINE_DIR}/platform/devtools/inspector.cpp"
    "${ENGINE_DIR}/platform/devtools/control.cpp")
set(ENGINE_RELEASE_SOURCES ${ENGINE_HOST_SOURCES})
list(REMOVE_ITEM ENGINE_RELEASE_SOURCES ${ENGINE_DEV_ONLY_SOURCES})

# Paths in the debug lines (-g1: the crash report's function and file:line) and in __FILE__: the project's files
# relative to it, the game's folder and its build folder (the unity file) by the game's name. The last map that
# matches wins: a player's copy names no folder of the project.
# cl.exe has none: its debug information is the PDB left in the tree (not shipped); a player's crash report names
# <exe>!+0xOFFSET, which that PDB resolves.
set(prefix_maps "-ffile-prefix-map=${ENGINE_DIR}=." "-ffile-prefix-map=${ENGINE_DIR}/=")
set(game_maps "-ffile-prefix-map=${game}=${name}" "-ffile-prefix-map=${ENGINE_RELEASE_GAME_BUILD}=${name}")
if(MSVC)
    set(prefix_maps "")
    set(game_maps "")
endif()
# A function or object a section, for --gc-sections at the link: not the web's, nor Windows' host (mingw-w64 then
# stores its large zeroed arrays in .data, which makes the executable megabytes bigger). cl.exe's are /Gy /Gw,
# for link.exe's /OPT:REF.
if(EMSCRIPTEN)
    set(sections "")
elseif(MSVC)
    set(sections /Gy /Gw)
else()
    set(sections -ffunction-sections -fdata-sections)
endif()
set(host_sections ${sections})
if(WIN32 AND NOT MSVC)
    set(host_sections "")
endif()
# The optimization, and the game's code generation (no exceptions, no RTTI, the layout stamp included first).
if(MSVC)
    set(release_opt /O2)
    set(game_codegen /EHs-c- /GR- "/FI${tree}/layout_stamp.h")
else()
    set(release_opt -O2)
    set(game_codegen -fno-exceptions -fno-rtti "-iquote${game}" "-include${tree}/layout_stamp.h")
endif()

# The layout stamp of state.h (tools/cmake/layout_stamp.cmake), from the preprocessor's dependency file where there
# is one. The web's stamp is g++'s, as the development build's.
if(EMSCRIPTEN)
    set(stamp_cxx g++)
else()
    set(stamp_cxx "${CMAKE_CXX_COMPILER}")
endif()
# the distro's python3 when there is one: a version manager's shim in front of it costs a few hundred ms
if(EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
include("${ENGINE_DIR}/tools/cmake/layout_stamp.cmake")
engine_layout_stamp("${tree}" "${game}" "${stamp_cxx}" DEPFILE)

# The game: its roots in one translation unit and the tinyheader implementations, as the development build
# compiles them but -O2, TWEAK sites as literals (THTW_LITERALS), hidden symbols but game_get_api.
add_library(release_game OBJECT "${ENGINE_RELEASE_UNITY}" "${ENGINE_DIR}/platform/include/tinyheaders.cpp")
target_link_libraries(release_game PRIVATE engine_flags)
target_include_directories(release_game PRIVATE "${game}" "${tree}" "${ENGINE_RELEASE_GAME_BUILD}")
target_compile_definitions(release_game PRIVATE THTW_LITERALS)
target_compile_options(release_game PRIVATE ${release_opt} ${sections} ${game_codegen} ${prefix_maps} ${game_maps})
if(NOT WIN32 AND NOT EMSCRIPTEN)
    target_compile_options(release_game PRIVATE -fvisibility=hidden)   # ld -r and objcopy below
endif()
set_source_files_properties("${ENGINE_RELEASE_UNITY}" "${ENGINE_DIR}/platform/include/tinyheaders.cpp"
    TARGET_DIRECTORY release_game PROPERTIES OBJECT_DEPENDS "${tree}/layout_stamp.h")

# stb's implementations, as the host's
add_library(release_stb OBJECT "${ENGINE_DIR}/platform/core/stb_impl.c")
target_include_directories(release_stb SYSTEM PRIVATE "${STB_INCLUDE_DIR}")
target_compile_options(release_stb PRIVATE ${release_opt} $<$<NOT:$<OR:$<BOOL:${EMSCRIPTEN}>,${ENGINE_MSVC}>>:-g1>
    ${sections} ${prefix_maps})

# The release host and its link: the game's objects with it, SDL2, libstdc++ and libgcc static.
add_executable(release_exe ${ENGINE_RELEASE_SOURCES} $<TARGET_OBJECTS:release_stb>)
target_link_libraries(release_exe PRIVATE engine_flags)
target_compile_definitions(release_exe PRIVATE HOST_RELEASE)
target_compile_options(release_exe PRIVATE ${release_opt} ${host_sections} ${prefix_maps}
    $<$<CXX_COMPILER_ID:GNU>:-Wno-format-truncation>)
set_target_properties(release_exe PROPERTIES OUTPUT_NAME "${name}" RUNTIME_OUTPUT_DIRECTORY "${tree}")
if(EMSCRIPTEN)
    # index.html + .js + .wasm + .data: SDL2 is Debian's source built for Emscripten (Emscripten's own port
    # downloads, which fails offline); game.pak is preloaded at /game/game.pak, where os_exe_path says the
    # executable is; function names stay in the module (--profiling-funcs) so a trap's report names them. The page
    # is platform/os/web/shell.html (the canvas, a loading bar, the report of a trap) titled with the game's name.
    if(NOT EXISTS "${ENGINE_RELEASE_PAK}")
        message(FATAL_ERROR "release: no game.pak at ENGINE_RELEASE_PAK (${ENGINE_RELEASE_PAK}; ./build.sh dist-web)")
    endif()
    set(TITLE "${name}")
    configure_file("${ENGINE_DIR}/platform/os/web/shell.html" "${tree}/shell.html" @ONLY)
    # the JavaScript library functions the page calls, one a line (a file: a $ on the link line would not reach em++)
    file(CONFIGURE OUTPUT "${tree}/library_funcs.txt" CONTENT "\$autoResumeAudioContext\n\$dynCall\n" @ONLY)
    target_include_directories(release_exe SYSTEM PRIVATE "${ENGINE_RELEASE_SDL2}/include/SDL2"
        "${ENGINE_RELEASE_SDL2}/include")
    target_sources(release_exe PRIVATE $<TARGET_OBJECTS:release_game>)
    target_link_libraries(release_exe PRIVATE "${ENGINE_RELEASE_SDL2}/lib/libSDL2.a")
    set_target_properties(release_exe PROPERTIES OUTPUT_NAME index SUFFIX ".html"
        LINK_DEPENDS "${tree}/shell.html;${tree}/library_funcs.txt;${ENGINE_RELEASE_PAK}")
    target_link_options(release_exe PRIVATE -O2 --shell-file "${tree}/shell.html" -sMINIFY_HTML=0
        --preload-file "${ENGINE_RELEASE_PAK}@/game/game.pak" -lidbfs.js -sALLOW_MEMORY_GROWTH=1
        -sINITIAL_MEMORY=134217728 "-sDEFAULT_LIBRARY_FUNCS_TO_INCLUDE=@${tree}/library_funcs.txt"
        --profiling-funcs "-sEXPORTED_RUNTIME_METHODS=['FS','addRunDependency','removeRunDependency']")
elseif(MSVC)
    # cl.exe and link.exe, SDL2's VC development package: the game's objects linked as they are (COFF, as below),
    # SDL2.lib (SDL2.dll's import library; the DLL is copied beside the executable), the C runtime static (/MT: no
    # Visual C++ redistributable to install). A GUI program whose entry is the C runtime's mainCRTStartup, which
    # calls platform/main.cpp's main() (SDL_MAIN_HANDLED: no SDL2main, no WinMain).
    target_include_directories(release_exe SYSTEM PRIVATE "${ENGINE_RELEASE_SDL2}/include")
    target_compile_definitions(release_exe PRIVATE SDL_MAIN_HANDLED)
    target_sources(release_exe PRIVATE $<TARGET_OBJECTS:release_game>)
    target_link_libraries(release_exe PRIVATE "${ENGINE_RELEASE_SDL2}/lib/x64/SDL2.lib" psapi user32)
    target_link_options(release_exe PRIVATE /ENTRY:mainCRTStartup /OPT:REF /OPT:ICF)
    set_target_properties(release_exe PROPERTIES WIN32_EXECUTABLE ON)   # /SUBSYSTEM:WINDOWS
    set_target_properties(release_exe release_game release_stb PROPERTIES MSVC_RUNTIME_LIBRARY MultiThreaded)
    add_custom_command(TARGET release_exe POST_BUILD
        COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${ENGINE_RELEASE_SDL2}/lib/x64/SDL2.dll" "${tree}/"
        VERBATIM)
elseif(WIN32)
    # COFF has no hidden visibility, and localizing the game's symbols as on Linux breaks the COMDAT copies of
    # inline functions the host and the game share (the executable then jumps into discarded code): the objects
    # are linked as they are, a name defined twice is a link error. A GUI program: no console window opens beside
    # the game.
    target_include_directories(release_exe SYSTEM PRIVATE "${ENGINE_RELEASE_SDL2}/include/SDL2")
    target_compile_definitions(release_exe PRIVATE SDL_MAIN_HANDLED)
    target_sources(release_exe PRIVATE $<TARGET_OBJECTS:release_game>)
    # SDL2.dll (and its import library) in the tree: every object of the static libSDL2.a in one DLL exporting
    # SDL's public functions (SDL2.def, tools/cmake/sdl2_def.cmake), so a player may swap in another SDL2.dll.
    find_package(SDL2 REQUIRED CONFIG PATHS "${ENGINE_RELEASE_SDL2}/lib/cmake/SDL2" NO_DEFAULT_PATH)
    add_custom_command(OUTPUT "${tree}/SDL2.def"
        COMMAND "${CMAKE_COMMAND}" "-DNM=${CMAKE_NM}" "-DLIB=${ENGINE_RELEASE_SDL2}/lib/libSDL2.a"
            "-DDEF=${tree}/SDL2.def" -P "${ENGINE_DIR}/tools/cmake/sdl2_def.cmake"
        DEPENDS "${ENGINE_RELEASE_SDL2}/lib/libSDL2.a" "${ENGINE_DIR}/tools/cmake/sdl2_def.cmake"
        COMMENT "release: SDL2.def from libSDL2.a" VERBATIM)
    add_library(release_sdl2 SHARED "${tree}/SDL2.def")
    target_link_libraries(release_sdl2 PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,SDL2::SDL2-static>")
    target_link_options(release_sdl2 PRIVATE -s -static-libgcc)
    set_target_properties(release_sdl2 PROPERTIES LINKER_LANGUAGE C OUTPUT_NAME SDL2 PREFIX ""
        IMPORT_PREFIX lib RUNTIME_OUTPUT_DIRECTORY "${tree}" ARCHIVE_OUTPUT_DIRECTORY "${tree}")
    target_link_libraries(release_exe PRIVATE release_sdl2 psapi user32)
    target_link_options(release_exe PRIVATE -O2 -s -mwindows -static -Wl,--gc-sections,--no-insert-timestamp)
else()
    # One relocatable object of the game whose hidden symbols are made local: only game_get_api meets the host.
    add_custom_command(OUTPUT "${tree}/game.o"
        COMMAND "${CMAKE_LINKER}" -r $<TARGET_OBJECTS:release_game> -o "${tree}/game.o"
        COMMAND "${CMAKE_OBJCOPY}" --localize-hidden "${tree}/game.o"
        DEPENDS release_game $<TARGET_OBJECTS:release_game>
        COMMENT "release: the game's one object" VERBATIM COMMAND_EXPAND_LISTS)
    find_package(SDL2 REQUIRED CONFIG)
    target_sources(release_exe PRIVATE "${tree}/game.o")
    target_link_libraries(release_exe PRIVATE SDL2::SDL2 pthread m)
    target_link_options(release_exe PRIVATE -O2 -static-libstdc++ -static-libgcc -Wl,--gc-sections)
endif()
