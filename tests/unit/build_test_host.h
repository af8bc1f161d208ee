/* build_test_host.h - platform/live/build.cpp compiled into a test program (test_build_errors, test_build_stages)
   with what it calls of the host: the OS layer, the log and the parsers, and in place of the rest no hot
   restart, no TWEAK baseline and no watchdog. Each program says where the game's folders and library are
   (library_built_path, game_folder, game_build_folder). Include it first, after th_test.h. */
#ifndef BUILD_TEST_HOST_H
#define BUILD_TEST_HOST_H

#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"
#include "core/log.cpp"
#include "core/parse.cpp"
#include "live/build.cpp"
#include "live/plan.cpp"

#include "host_core_stubs.h"   /* no hot restart, the frame loop's globals */
void tweak_build_started(void) {}
void tweak_build_finished(int ok) { (void)ok; }

#endif
