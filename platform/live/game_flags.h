/* game_flags.h - the flags every compile of the engine's C++ outside CMake starts with, written down once: the
   host's game build (plan.cpp) and build.sh (its Windows and fuzz builds read the two lines below with sed) both
   take them from here; CMake's engine_flags (CMakeLists.txt) are the same flags. Each a string on one line of its
   own. */
#ifndef HOST_GAME_FLAGS_H
#define HOST_GAME_FLAGS_H

#define ENGINE_COMMON_FLAGS "-std=c++17 -g -Wall -Wextra -Itinyheaders -Iplatform/include -Iplatform"
/* development builds and tests: th_collide names a bad hand-built polygon; a release and the benchmarks leave it out */
#define ENGINE_DEV_CHECKS "-DTHC_VALIDATE"

#endif /* HOST_GAME_FLAGS_H */
