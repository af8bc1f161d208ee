@echo off
rem build.bat - the engine's build on Windows with MSVC (run from a "x64 Native Tools" prompt). `build.bat help`
rem lists the commands (:usage below): build.sh's that make sense on Windows, with the same names and arguments.
rem
rem Needs: CMake and Ninja (both come with Visual Studio's C++ workload)
rem        SDL2_DIR = the SDL2 "VC" development package (include\, lib\x64\SDL2.lib, SDL2.dll, cmake\)
rem        STB_DIR  = a folder holding the stb headers (stb_image.h, stb_truetype.h, ...)
rem
rem Every build is CMake's (CMakeLists.txt, CMakePresets.json): nothing is compiled, linked or chunked here.
rem  - host: the msvc preset (build\cmake\msvc), as build.sh builds it with the dev preset on Linux.
rem  - game: CMakeLists.txt's game_dll target with the msvc preset in a tree of its own under the game's build
rem    folder (OUT\cmake-msvc), as ./build.sh game-win builds it with clang for mingw-w64. It is rebuilt while the
rem    host runs it, so every build writes a PDB with a unique name (the debugger keeps the loaded one open), a
rem    lock file exists while CMake builds it (here; the host waits for it to vanish before copying the DLL), and
rem    the DLL is linked to a temporary name and moved into place at the end (tools\cmake\link_game.cmake).
rem  - dist: the msvc-release preset (tools\cmake\release.cmake) in <game's dist build>\cmake\msvc-release.
rem    The offline tools are POSIX programs, so game.pak is the one ./build.sh dist made on Linux (:find_pak).
rem
rem Not run on a real Windows yet: the project is tested on Linux, where build.sh test-windows cross-builds the
rem same sources with mingw-w64 and runs them under wine (see docs\windows.md); tests\e2e\test_build_bat.py
rem runs the commands that need no compiler (help, new, the checks of the others) under wine.
setlocal EnableDelayedExpansion
set ROOT=%~dp0
set ROOT=%ROOT:~0,-1%
set BUILD_DIR=%ROOT%\build
set SAMPLE_NAME=neon-swarm
set "CMD=%~1"
if "%CMD%"=="" set CMD=run
set HELP=
for %%h in (help -h --help) do if /i "%CMD%"=="%%h" set HELP=1
if "%CMD%"=="/?" set HELP=1
if defined HELP ( call :usage & exit /b 0 )
rem The game folder and its build folder (the host names both when it runs "game"; platform\live\game_folder.cpp).
set "GAME=%ROOT%\game"
set "GAME_BUILD_DIR="
set GAME_GIVEN=
if /i "%CMD%"=="game" if not "%~2"=="" set "GAME=%~f2"& set GAME_GIVEN=1
if /i "%CMD%"=="game" if not "%~3"=="" set "GAME_BUILD_DIR=%~f3"
if /i "%CMD%"=="build" if not "%~2"=="" set "GAME=%~f2"& set GAME_GIVEN=1
if /i "%CMD%"=="dist" if not "%~2"=="" set "GAME=%~f2"& set GAME_GIVEN=1
if /i "%CMD%"=="run" if exist "%~2\state.h" set "GAME=%~f2"& set GAME_GIVEN=1
rem Everything after the command goes to host.exe. Collected here, outside any ( ) block: inside one,
rem %1 is expanded once when the block is read, so a "shift" there would change nothing.
set ARGS=
set "EXTRA=%~3"
set NEW_ARGS=%2 %3
if /i "%CMD%"=="game" set "EXTRA=%~4"
if defined GAME_GIVEN shift
:next_arg
shift
if "%~1"=="" goto args_done
set ARGS=!ARGS! %1
goto next_arg
:args_done

if /i "%CMD%"=="clean" (
    if defined ARGS ( echo build.bat: clean takes no argument:!ARGS! 1>&2 & exit /b 2 )
    if exist "%BUILD_DIR%" rmdir /s /q "%BUILD_DIR%"
    exit /b 0
)
if /i "%CMD%"=="new" (
    call :new %NEW_ARGS%
    exit /b !errorlevel!
)
set KNOWN=
for %%c in (run host game build dist) do if /i "%CMD%"=="%%c" set KNOWN=1
if not defined KNOWN (
    echo build.bat: unknown command '%CMD%' 1>&2
    call :usage 1>&2
    exit /b 2
)
if /i "%CMD%"=="host" if defined ARGS ( echo build.bat: host takes no argument:!ARGS! 1>&2 & exit /b 2 )
set ONE_ARG=
if /i "%CMD%"=="build" set ONE_ARG=1
if /i "%CMD%"=="dist" set ONE_ARG=1
if defined ONE_ARG if defined ARGS ( echo build.bat: %CMD% takes one game folder, not also!ARGS! 1>&2 & exit /b 2 )
if /i "%CMD%"=="game" if not "%EXTRA%"=="" ( echo build.bat: game takes GAME and OUT, not also '%EXTRA%' 1>&2 & exit /b 2 )
if defined GAME_GIVEN call :check_game || exit /b 2
rem the sample's game.pak is named before anything is built: a dist without one stops at once
if /i "%CMD%"=="dist" if not defined GAME_GIVEN call :dist_names && call :find_pak || exit /b 1

where cl >nul 2>nul || (echo build.bat: cl.exe not found - open a "x64 Native Tools Command Prompt for VS" 1>&2 & exit /b 1)

if /i "%CMD%"=="game" (
    call :game
    exit /b !errorlevel!
)
call :check_deps || exit /b 1
call :host || exit /b 1
if /i "%CMD%"=="host" exit /b 0
if /i "%CMD%"=="dist" (
    call :dist
    exit /b !errorlevel!
)
if /i "%CMD%"=="build" (
    call :game
    exit /b !errorlevel!
)
rem run: another game folder's library is built by the host itself, into the folder it derives for it
if not defined GAME_GIVEN call :game || exit /b 1
"%BUILD_DIR%\host.exe" --root "%ROOT%" --game "%GAME%" !ARGS!
exit /b !errorlevel!

:usage
echo usage: build.bat [command] [GAME] [host flags]     GAME: a game folder (default: game\, the sample)
echo.
echo   run [GAME] [flags]   build the host and the game, start the game (the default command)
echo   new NAME^|PATH        make a new game folder from tools\template\ (NAME: in the current folder)
echo   game [GAME [OUT]]    the game library only (what the host runs on save)  -^> OUT\game.dll
echo   host                 the persistent host executable                     -^> build\host.exe
echo   build [GAME]         the host and the game library
echo   dist [GAME]          the game for players (game linked in, SDL2.dll, the game.pak ./build.sh dist
echo                        made on Linux; GAME_PAK names another)  -^> dist\^<name^>-windows-x86_64\
echo   clean                remove build\
echo   help, -h, --help     this list
echo.
echo Set SDL2_DIR (SDL2's VC development package) and STB_DIR (the stb headers) first. build.sh's other
echo commands (tools, assets, test, bench, fuzz, the other releases) run on Linux; the host's flags: host.exe --help.
exit /b 0

:check_game
if not exist "%GAME%\" ( echo build.bat: no game folder '%GAME%' ^(a game folder holds state.h and game.cpp^) 1>&2 & exit /b 2 )
set MISSING=
if not exist "%GAME%\game.cpp" set MISSING=game.cpp
if not exist "%GAME%\state.h" set MISSING=state.h
if defined MISSING ( echo build.bat: %GAME% is not a game folder: it has no %MISSING% 1>&2 & exit /b 2 )
exit /b 0

:check_deps
if "%SDL2_DIR%"=="" ( echo build.bat: set SDL2_DIR to the SDL2 VC development package 1>&2 & exit /b 1 )
if not exist "%SDL2_DIR%\include\SDL.h" ( echo build.bat: %SDL2_DIR%\include\SDL.h not found - check SDL2_DIR 1>&2 & exit /b 1 )
if "%STB_DIR%"=="" ( echo build.bat: set STB_DIR to a folder with the stb headers 1>&2 & exit /b 1 )
if not exist "%STB_DIR%\stb_image.h" ( echo build.bat: %STB_DIR%\stb_image.h not found - check STB_DIR 1>&2 & exit /b 1 )
where cmake >nul 2>nul || (echo build.bat: cmake not found - install Visual Studio's "C++ CMake tools for Windows" 1>&2 & exit /b 1)
exit /b 0

:host
rem host.exe from CMakeLists.txt (the msvc preset: build\cmake\msvc, Ninja decides what is stale), then SDL2.dll beside it.
if not exist "%BUILD_DIR%\cmake\msvc\build.ninja" (
    cmake --preset msvc -S "%ROOT%" -DSDL2_DIR="%SDL2_DIR%\cmake" -DSTB_INCLUDE_DIR="%STB_DIR%" || exit /b 1
)
cmake --build "%BUILD_DIR%\cmake\msvc" --target host || exit /b 1
copy /y "%SDL2_DIR%\lib\x64\SDL2.dll" "%BUILD_DIR%\" >nul
exit /b 0

:game_build_dir
rem The game's build folder when none was given: build\game for the sample, else the one host.exe names for it.
if defined GAME_BUILD_DIR exit /b 0
set "GAME_BUILD_DIR=%BUILD_DIR%\game"
if not defined GAME_GIVEN exit /b 0
if /i "%GAME%"=="%ROOT%\game" exit /b 0
set "GAME_BUILD_DIR="
for /f "delims=" %%d in ('""%BUILD_DIR%\host.exe" --root "%ROOT%" --game "%GAME%" --print-game-build"') do (
    set "GAME_BUILD_DIR=%%d"
)
if not defined GAME_BUILD_DIR ( echo build.bat: host.exe could not name the build folder of %GAME% 1>&2 & exit /b 1 )
exit /b 0

:game
rem The game folder's library: the unity file of its roots (host.exe --write-unity, the planner's rule), the
rem layout stamp and state_types.inc (tools\layout_stamp.py with cl's preprocessor; without Python only
rem state_size guards the layout), the tinyheaders at /O2, game.dll with /MD (host.exe's C runtime: memory
rem or a FILE* may cross the boundary). The tree is configured once per build folder; Ninja decides what is stale.
where cmake >nul 2>nul || (echo build.bat: cmake not found - install Visual Studio's "C++ CMake tools for Windows" 1>&2 & exit /b 1)
if not exist "%BUILD_DIR%\host.exe" ( echo build.bat: %BUILD_DIR%\host.exe not found - run build.bat host 1>&2 & exit /b 1 )
call :game_build_dir || exit /b 1
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

:dist_names
rem The game's name (the executable's: the sample's SAMPLE_NAME, else the folder's name in lower case with - for
rem . and spaces, as build.sh's set_game makes it), its build folder and its dist build folder (build.sh's
rem GAME_DIST_BUILD, where ./build.sh dist writes game.pak).
if /i "%GAME%"=="%ROOT%\game" (
    set "GAME_NAME=%SAMPLE_NAME%"
    set "GAME_BUILD_DIR=%BUILD_DIR%\game"
    set "GAME_DIST_BUILD=%BUILD_DIR%\dist"
    exit /b 0
)
call :game_build_dir || exit /b 1
set "GAME_DIST_BUILD=%GAME_BUILD_DIR%\dist"
for %%d in ("%GAME%") do set "GAME_NAME=%%~nxd"
for %%l in (a b c d e f g h i j k l m n o p q r s t u v w x y z) do set "GAME_NAME=!GAME_NAME:%%l=%%l!"
set "GAME_NAME=!GAME_NAME:.=-!"
set "GAME_NAME=!GAME_NAME: =-!"
exit /b 0

:find_pak
rem game.pak: GAME_PAK when set, else the one ./build.sh dist wrote (the game's dist build folder, or the Linux
rem release folder dist\<name>-linux-x86_64\ copied here).
if defined GAME_PAK (
    set "PAK=%GAME_PAK%"
    if exist "!PAK!" exit /b 0
    echo build.bat: dist: GAME_PAK names no file: !PAK! 1>&2
    exit /b 1
)
set "PAK=%GAME_DIST_BUILD%\game.pak"
if exist "%PAK%" exit /b 0
set "PAK=%ROOT%\dist\%GAME_NAME%-linux-x86_64\game.pak"
if exist "%PAK%" exit /b 0
echo build.bat: dist: no game.pak: neither %GAME_DIST_BUILD%\game.pak nor %PAK% exists. 1>&2
echo build.bat: dist: the offline tools that make it are POSIX programs: run ./build.sh dist on Linux, 1>&2
echo build.bat: dist: which writes both, and copy one here ^(or set GAME_PAK to it^). 1>&2
exit /b 1

:dist
rem The release: the game's unity file (host.exe), then the msvc-release preset's tree (tools\cmake\release.cmake:
rem <name>.exe and SDL2.dll beside it), staged with game.pak and README.txt in dist\<name>-windows-x86_64\ and,
rem where Windows' tar is, zipped.
call :dist_names || exit /b 1
call :find_pak || exit /b 1
set "UNITY="
for /f "delims=" %%u in ('""%BUILD_DIR%\host.exe" --root "%ROOT%" --game "%GAME%" --write-unity"') do set "UNITY=%%u"
if not defined UNITY ( echo build.bat: dist: host.exe did not write the game's unity file 1>&2 & exit /b 1 )
if not "%UNITY:~1,1%"==":" set "UNITY=%ROOT%\%UNITY%"
set "TREE=%GAME_DIST_BUILD%\cmake\msvc-release"
if not exist "%TREE%" mkdir "%TREE%"
cmake --preset msvc-release -S "%ROOT%" -B "%TREE%" -DENGINE_RELEASE_GAME="%GAME%" -DENGINE_RELEASE_NAME=%GAME_NAME% ^
    -DENGINE_RELEASE_GAME_BUILD="%GAME_BUILD_DIR%" -DENGINE_RELEASE_UNITY="%UNITY%" ^
    -DENGINE_RELEASE_SDL2="%SDL2_DIR%" -DSTB_INCLUDE_DIR="%STB_DIR%" > "%TREE%.configure.log" 2>&1 || (
    type "%TREE%.configure.log" & echo build.bat: dist: configuring %TREE% failed ^(above^) 1>&2 & exit /b 1
)
echo dist: building the game and the release host ^(/O2^) in %TREE%
cmake --build "%TREE%" || ( echo build.bat: dist: the build failed ^(above^) 1>&2 & exit /b 1 )
set "OUT_NAME=%GAME_NAME%-windows-x86_64"
set "OUT=%ROOT%\dist\%OUT_NAME%"
if exist "%OUT%" rmdir /s /q "%OUT%"
if exist "%OUT%.zip" del /q "%OUT%.zip"
mkdir "%OUT%" || exit /b 1
for %%f in ("%TREE%\%GAME_NAME%.exe" "%TREE%\SDL2.dll") do (
    copy /y %%f "%OUT%\" >nul || ( echo build.bat: dist: cannot copy %%f 1>&2 & exit /b 1 )
)
copy /y "%PAK%" "%OUT%\game.pak" >nul || ( echo build.bat: dist: cannot copy %PAK% 1>&2 & exit /b 1 )
call :player_readme "%OUT%\README.txt" || exit /b 1
where tar >nul 2>nul && tar -a -c -f "%OUT%.zip" -C "%ROOT%\dist" "%OUT_NAME%" && echo dist: %OUT%.zip
echo dist: %OUT%\ ^(%GAME_NAME%.exe, SDL2.dll, game.pak from %PAK%, README.txt^)
exit /b 0

:player_readme
rem README.txt for players, as build.sh's player_readme: the game folder's README.txt, the sample's
rem docs\player_readme.txt, or tools\template\README.txt; "@windows " lines kept without the mark, the other
rem platforms' dropped; @GAME@ and @TITLE@ the game's name, @UNDERLINE@ a line of = as long.
set "SRC=%ROOT%\tools\template\README.txt"
if /i "%GAME%"=="%ROOT%\game" set "SRC=%ROOT%\docs\player_readme.txt"
if exist "%GAME%\README.txt" set "SRC=%GAME%\README.txt"
set "S_GAME=%GAME_NAME%"
set "S_UNDER="
set "T=%GAME_NAME%"
:underline
if defined T ( set "S_UNDER=!S_UNDER!=" & set "T=!T:~1!" & goto underline )
call :subst_copy "%SRC%" "%~1"
exit /b !errorlevel!

:new
rem build.sh's cmd_new: a new game folder from tools\template\ (state.h and game.cpp with @NAME@ the folder's
rem name and @FOLDER@ the argument as typed, its own sprite and sound, the empty asset folders).
set "ARG=%~1"
if "%~1"=="" goto new_usage
if not "%~2"=="" goto new_usage
if "%ARG:~0,1%"=="-" goto new_usage
set "D=%~f1"
set "NAME=%~nx1"
if not defined NAME goto new_bad_name
if "%NAME:~0,1%"=="." goto new_bad_name
if "%NAME:~0,1%"=="-" goto new_bad_name
for /f "delims=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-" %%c in ("%NAME%") do goto new_bad_name
set D_EXISTED=
if exist "%D%\" set D_EXISTED=1
if exist "%D%" if not exist "%D%\" ( echo new: %D% already exists and is not a folder 1>&2 & exit /b 1 )
set NONEMPTY=
if exist "%D%\" for /f "delims=" %%f in ('dir /b /a "%D%" 2^>nul') do set NONEMPTY=1
if defined NONEMPTY ( echo new: %D% already exists and is not empty 1>&2 & exit /b 1 )
for %%s in (sprites sfx sounds fonts) do if not exist "%D%\assets\%%s" mkdir "%D%\assets\%%s"
if not exist "%D%\assets\fonts" ( echo new: cannot make %D% 1>&2 & exit /b 1 )
set "S_NAME=%NAME%"
set "S_FOLDER=%ARG%"
rem its own art and sound (the engine's assets\ is the fallback for the names it does not have)
copy /y "%ROOT%\tools\template\assets\sprites\ship.png" "%D%\assets\sprites\ship.png" >nul
copy /y "%ROOT%\tools\template\assets\sfx\bounce.sfx" "%D%\assets\sfx\bounce.sfx" >nul
if not exist "%D%\assets\sfx\bounce.sfx" goto new_failed
call :subst_copy "%ROOT%\tools\template\state.h" "%D%\state.h" || goto new_failed
call :subst_copy "%ROOT%\tools\template\game.cpp" "%D%\game.cpp" || goto new_failed
echo new: made %D% ^(state.h, game.cpp, assets\sprites\ship.png, assets\sfx\bounce.sfx^)
set "BAT=build.bat"
if /i not "%CD%"=="%ROOT%" set "BAT=%ROOT%\build.bat"
echo new: run it with   %BAT% run %ARG%   and edit %ARG%\game.cpp while it runs ^(docs\game_api.md^)
exit /b 0
:new_failed
rem nothing half made stays: the folder is as empty as it was
rmdir /s /q "%D%" 2>nul
mkdir "%D%" 2>nul
if not defined D_EXISTED rmdir "%D%" 2>nul
echo new: %D% was not made ^(above^) 1>&2
exit /b 1
:new_usage
echo usage: build.bat new NAME^|PATH 1>&2
exit /b 2
:new_bad_name
echo new: '%NAME%' is not a name for a game ^(letters, digits, _ . -^) 1>&2
exit /b 2

:subst_copy
rem SRC -> DST line by line (findstr /n keeps the empty lines; delayed expansion is off while a line is read, so
rem its ! stay): @NAME@ @FOLDER@ @GAME@ @TITLE@ @UNDERLINE@ replaced when set, "@windows " marks dropped,
rem "@linux " and "@web " lines left out.
type nul > "%~2"
setlocal DisableDelayedExpansion
for /f "delims=" %%a in ('findstr /n "^" "%~1"') do (
    set "line=%%a"
    setlocal EnableDelayedExpansion
    set "line=!line:*:=!"
    set KEEP=1
    if defined line (
        if "!line:~0,9!"=="@windows " set "line=!line:~9!"
        if "!line:~0,7!"=="@linux " set KEEP=
        if "!line:~0,5!"=="@web " set KEEP=
    )
    if defined line if defined S_NAME set "line=!line:@NAME@=%S_NAME%!"
    if defined line if defined S_FOLDER set "line=!line:@FOLDER@=%S_FOLDER%!"
    if defined line if defined S_GAME set "line=!line:@GAME@=%S_GAME%!"
    if defined line if defined S_GAME set "line=!line:@TITLE@=%S_GAME%!"
    if defined line if defined S_UNDER set "line=!line:@UNDERLINE@=%S_UNDER%!"
    if defined KEEP >> "%~2" echo(!line!
    endlocal
)
endlocal
set HAS_LINES=
for /f "usebackq delims=" %%x in ("%~2") do set HAS_LINES=1
if defined HAS_LINES exit /b 0
echo build.bat: could not copy %~1 to %~2: "findstr /n" gave no lines 1>&2
exit /b 1
