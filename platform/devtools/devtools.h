/* devtools.h - what the developer sees: the hot keys and what the tools take from the input, the F1 overlay,
   the F4 tweak panel, the F8 timeline's bar, the Shift+F1 state inspector, the control socket. */
#ifndef HOST_DEVTOOLS_H
#define HOST_DEVTOOLS_H

#include "live/live.h"

/* ---------------------------------------------------------------- overlay (overlay.cpp) */
void overlay_toggle(void);
const InputHooks *devtools_input_hooks(void);         /* hotkeys.cpp: the hot keys, the profiler's view, the F4 panel */
void overlay_note_frame(double work_ms);
void overlay_draw(RenderStats rs, double fps);

/* ---------------------------------------------------------------- the timeline's bar (timeline_bar.cpp, F8) */
void timeline_bar_toggle(void);                  /* F8: pause on the timeline / live again (a branch from the past) */
int  timeline_bar_key(GameKey k, int down, int shift); /* Left/Right, P, V, the bar's drag, paused on it: 1 = taken */
int  timeline_bar_mouse(float x, float y);       /* every pointer move; 1 = dragging the bar */
int  timeline_bar_frame(int single_step, int owed);   /* once a frame while paused: P and F9 on the timeline;
                                                         owed: the clock's steps; 0: not on it, 2: playing */
void timeline_bar_draw(void);

/* ---------------------------------------------------------------- session files (timeline_files.cpp) */
int  timeline_files_save(const char *path);      /* E on the bar, --save-session: path NULL = the build folder's */
void timeline_files_start(void);                 /* --open-session FILE, after the first library loaded */
void timeline_files_exit(void);                  /* --save-session FILE */

/* ---------------------------------------------------------------- the tweak panel (tweak_panel.cpp, F4) */
int tweak_panel_key(GameKey k, int down, int ctrl);     /* F4, Ctrl+Z/Y, the mouse and typing while open: 1 = taken */
int         tweak_panel_mouse(float x, float y);        /* every pointer move; 1 = the panel has it (not the game) */
void        tweak_panel_text(const char *utf8);         /* typed characters (SDL_TEXTINPUT) for a focused field */
int         tweak_panel_wheel(float dy);                /* 1 = it scrolled the panel (not the game's wheel) */
void        tweak_panel_draw(void);                     /* once per frame: a paused drag written back, the panel */

/* ---------------------------------------------------------------- the state inspector (inspector.cpp, Shift+F1) */
int  inspector_key(GameKey k, int down, int shift, int ctrl); /* Shift+F1, its keys and clicks while open: 1 = taken */
int  inspector_mouse(float x, float y);                 /* every pointer move; 1 = over the inspector */
int  inspector_wheel(float dy);                         /* 1 = it scrolled the inspector */
void inspector_text(const char *utf8);                  /* typed characters for its filter or a value */
void inspector_draw(void);                              /* once per frame: the inspector, the pinned watches */
int  inspector_filter_match(const char *filter, const char *const *names, const char *const *values, int n);
int  inspector_window(int sel, int first, int visible, int total);   /* the first row that keeps sel on screen */

/* ---------------------------------------------------------------- the control socket (control.cpp; development) */
void   control_start(void);            /* <game build folder>/control.sock listening (unless --no-control) */
void   control_poll(void);             /* between frames: clients, their requests, the steps they wait for */
void   control_stop(void);             /* the clients closed, the socket file removed */
double control_poll_us(void);          /* a poll's average cost, microseconds */

#endif /* HOST_DEVTOOLS_H */
