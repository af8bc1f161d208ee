# The Windows cross build (the mingw preset): Debian's mingw-w64 (g++-mingw-w64-x86-64-win32) and an SDL2 built
# for it (SDL2_DIR: <prefix>/lib/cmake/SDL2, which ./build.sh test-windows makes under build/win/).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# mingw-w64's C++ headers named on every compile: g++ finds them by itself, an editor's clang (clangd, which takes
# its flags from compile_commands.json) does not find Debian's.
execute_process(COMMAND x86_64-w64-mingw32-g++ -print-file-name=include OUTPUT_VARIABLE mingw_gcc_include
    OUTPUT_STRIP_TRAILING_WHITESPACE)
set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES "${mingw_gcc_include}/c++" "${mingw_gcc_include}/c++/x86_64-w64-mingw32"
    "${mingw_gcc_include}/c++/backward")
