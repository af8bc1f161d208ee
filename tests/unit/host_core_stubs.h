/* host_core_stubs.h - what test programs that compile parts of the host without its frame loop (log.cpp,
   parse.cpp, build.cpp, guard.cpp: test_build_errors, test_build_stages, test_platform_services) give them in
   place of the rest: no hot restart session (restart.cpp), and the command line, the frame loop and the service table. Include after the
   host's .cpp files. */
#ifndef HOST_CORE_STUBS_H
#define HOST_CORE_STUBS_H

void   restart_check_stall(int running_guarded) { (void)running_guarded; }

Options     g_options;
FrameLoop   g_loop;
PlatformAPI g_pf;
const Options *options(void) { return &g_options; }   /* core.cpp's and services.cpp's accessors, over these */
Options     *options_edit(void) { return &g_options; }
FrameLoop   *frame_loop(void) { return &g_loop; }
PlatformAPI *services_api(void) { return &g_pf; }

#endif
