/* core.cpp - what every module reads: the command line and the frame loop's counters. */
#include "core.h"

Options   g_options;
FrameLoop g_loop;

const char *host_root(void) { return g_options.root; }
