@echo off
rem build.bat - the engine's build on Windows with MSVC (run from a "x64 Native Tools" prompt).
rem
rem   build.bat run [GAME] [host flags]  build everything and start the game (GAME: a game folder, default game\)
rem   build.bat host               the persistent host          -> build\host.exe
rem   build.bat game [GAME [OUT]]  the game library only        -> build\game\game.dll, or OUT\game.dll
rem                                (the host runs this on save with the game's build folder as OUT)
rem   build.bat clean
rem
rem Needs: CMake and Ninja (both come with Visual Studio's C++ workload)
rem        SDL2_DIR = the SDL2 "VC" development package (include\, lib\x64\SDL2.lib, SDL2.dll, cmake\)
rem        STB_DIR  = a folder holding the stb headers (stb_image.h, stb_truetype.h, ...)
rem
rem The host is built from CMakeLists.txt with the msvc preset (CMakePresets.json), as build.sh builds it with
rem the dev preset on Linux: one description of the host's sources and flags for every platform. The offline
rem tools are POSIX programs: build them on Linux (./build.sh tools).
rem
rem The game DLL is CMakeLists.txt's game_dll target too, built with the msvc preset in a tree of its own under
rem the game's build folder (OUT\cmake-msvc), as ./build.sh game-win builds it with clang for mingw-w64. It is
rem rebuilt while the host runs it, so:
rem  - every build writes a PDB with a unique name (the debugger keeps the loaded one open),
rem  - a lock file exists while CMake builds it (here); the host waits for it to vanish before copying
rem    the DLL, so it never loads a half-written file,
rem  - the DLL is linked to a temporary name and moved into place at the end (tools\cmake\link_game.cmake).
rem
rem Not run on a real Windows yet: the project is tested on Linux, where build.sh test-windows
rem cross-builds the same sources with mingw-w64 and runs them under wine (see README "Windows").
setlocal EnableDelayedExpansion
set ROOT=%~dp0
set ROOT=%ROOT:~0,-1%
set BUILD_DIR=%ROOT%\build
set "CMD=%~1"
if "%CMD%"=="" set CMD=run
rem The game folder and its build folder (the host names both when it runs "game"; platform\live\game_folder.cpp).
set "GAME=%ROOT%\game"
set "GAME_BUILD_DIR=%BUILD_DIR%\game"
set GAME_GIVEN=
if /i "%CMD%"=="game" if not "%~2"=="" set "GAME=%~f2"
if /i "%CMD%"=="game" if not "%~3"=="" set "GAME_BUILD_DIR=%~f3"
if /i "%CMD%"=="run" if exist "%~2\state.h" set "GAME=%~f2"& set GAME_GIVEN=1
rem Everything after the command goes to host.exe. Collected here, outside any ( ) block: inside one,
rem %1 is expanded once when the block is read, so a "shift" there would change nothing.
set ARGS=
if defined GAME_GIVEN shift
:next_arg
shift
if "%~1"=="" goto args_done
set ARGS=!ARGS! %1
goto next_arg
:args_done

if /i "%CMD%"=="clean" (
    if exist "%BUILD_DIR%" rmdir /s /q "%BUILD_DIR%"
    exit /b 0
)

where cl >nul 2>nul || (echo build.bat: cl.exe not found - open a "x64 Native Tools Command Prompt for VS" & exit /b 1)

if /i "%CMD%"=="game" (
    call :game
    exit /b !errorlevel!
)
if /i "%CMD%"=="host" (
    call :check_deps || exit /b 1
    call :host
    exit /b !errorlevel!
)
if /i "%CMD%"=="run" (
    call :check_deps || exit /b 1
    call :host  || exit /b 1
    rem another game folder's library is built by the host itself, into the folder it derives for it
    if not defined GAME_GIVEN call :game || exit /b 1
    "%BUILD_DIR%\host.exe" --root "%ROOT%" --game "%GAME%" !ARGS!
    exit /b !errorlevel!
)
echo build.bat: unknown command '%CMD%' (run, host, game, clean)
exit /b 2

:check_deps
if "%SDL2_DIR%"=="" ( echo build.bat: set SDL2_DIR to the SDL2 VC development package & exit /b 1 )
if not exist "%SDL2_DIR%\include\SDL.h" ( echo build.bat: %SDL2_DIR%\include\SDL.h not found - check SDL2_DIR & exit /b 1 )
if "%STB_DIR%"=="" ( echo build.bat: set STB_DIR to a folder with the stb headers & exit /b 1 )
if not exist "%STB_DIR%\stb_image.h" ( echo build.bat: %STB_DIR%\stb_image.h not found - check STB_DIR & exit /b 1 )
exit /b 0

:host
rem host.exe from CMakeLists.txt (the msvc preset: build\cmake\msvc, Ninja decides what is stale), then SDL2.dll beside it.
where cmake >nul 2>nul || (echo build.bat: cmake not found - install Visual Studio's "C++ CMake tools for Windows" & exit /b 1)
if not exist "%BUILD_DIR%\cmake\msvc\build.ninja" (
    cmake --preset msvc -S "%ROOT%" -DSDL2_DIR="%SDL2_DIR%\cmake" -DSTB_INCLUDE_DIR="%STB_DIR%" || exit /b 1
)
cmake --build "%BUILD_DIR%\cmake\msvc" --target host || exit /b 1
copy /y "%SDL2_DIR%\lib\x64\SDL2.dll" "%BUILD_DIR%\" >nul
exit /b 0

:game
rem The game folder's library: the unity file of its roots (host.exe --write-unity, the planner's rule), the
rem layout stamp and state_types.inc (tools\layout_stamp.py with cl's preprocessor; without Python only
rem state_size guards the layout), the tinyheaders at /O2, game.dll with /MD (host.exe's C runtime: memory
rem or a FILE* may cross the boundary). The tree is configured once per build folder; Ninja decides what is stale.
where cmake >nul 2>nul || (echo build.bat: cmake not found - install Visual Studio's "C++ CMake tools for Windows" & exit /b 1)
if not exist "%BUILD_DIR%\host.exe" ( echo build.bat: %BUILD_DIR%\host.exe not found - run build.bat host & exit /b 1 )
if not exist "%GAME_BUILD_DIR%" mkdir "%GAME_BUILD_DIR%"
echo building > "%GAME_BUILD_DIR%\build.lock"
set RC=0
if not exist "%GAME_BUILD_DIR%\cmake-msvc\build.ninja" (
    cmake --preset msvc -S "%ROOT%" -B "%GAME_BUILD_DIR%\cmake-msvc" -DENGINE_GAME_DIR="%GAME%" ^
        -DENGINE_GAME_BUILD_DIR="%GAME_BUILD_DIR%" -DENGINE_GAME_HOST="%BUILD_DIR%\host.exe" >nul || set RC=1
)
if %RC%==0 cmake --build "%GAME_BUILD_DIR%\cmake-msvc" --target game_dll || set RC=1
del /q "%GAME_BUILD_DIR%\build.lock" 2>nul
exit /b %RC%
