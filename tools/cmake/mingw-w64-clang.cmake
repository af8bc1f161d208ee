# The Windows game library cross-built from Linux (./build.sh game-win, the mingw-game preset): Debian's clang
# for the x86_64-w64-mingw32 target with lld, against mingw-w64's headers and libraries. clang and lld rather than
# mingw g++ and GNU ld: clang writes CodeView debug info (-gcodeview) and lld a PDB from it (-Wl,--pdb=), which a
# Windows debugger reads (GNU ld 2.40 has --pdb too, but g++ emits no CodeView: its PDB would hold no lines or
# types). host.exe keeps mingw-w64.cmake (g++).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(ENGINE_MINGW_TARGET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER clang)
set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_C_COMPILER_TARGET ${ENGINE_MINGW_TARGET})
set(CMAKE_CXX_COMPILER_TARGET ${ENGINE_MINGW_TARGET})
set(CMAKE_RC_COMPILER ${ENGINE_MINGW_TARGET}-windres)
# Debian's clang finds mingw-w64's libstdc++ and libgcc only with their folder named
set(ENGINE_MINGW_GCC_LIB /usr/lib/gcc/x86_64-w64-mingw32/12-win32 CACHE PATH "mingw-w64's libgcc and libstdc++")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld -L${ENGINE_MINGW_GCC_LIB}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld -L${ENGINE_MINGW_GCC_LIB}")
set(CMAKE_FIND_ROOT_PATH /usr/${ENGINE_MINGW_TARGET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
