/* hotkeys.cpp - what the developer's tools take from the input before the game sees it: the host's hot keys
   (F1 overlay, F2 debug draw, F5 rebuild, F6 restart the state, F7 loop, F8 pause on the timeline, F9 step, F12
   screenshot), the timeline's bar (its keys and drags while paused on it), the
   profiler's view (Shift+F4, its keys), the Shift+F1 state inspector and the F4 tweak panel (its keys, pointer,
   wheel and typing). input.cpp
   calls these through the InputHooks main.cpp registers, and only with --dev-keys (always on in development). */
#include "devtools.h"

static void hot_key(GameKey k)
{
    switch (k) {
    case KEY_F1: overlay_toggle(); break;
    case KEY_F2:
        services_api()->debug_draw = !services_api()->debug_draw;
        log_event("debug_draw", "\"on\":%s", services_api()->debug_draw ? "true" : "false");
        break;
    case KEY_F5: g_host_mode.rebuild(); break;
    case KEY_F6: reload_restart_state(); break;
    case KEY_F7: recording_toggle_loop(); break;
    case KEY_F8: timeline_bar_toggle(); break;   /* the pause shows the timeline */
    case KEY_F9: if (frame_loop()->paused) frame_loop()->single_step = 1; break;
    case KEY_F12: frame_loop()->want_screenshot = 1; break;
    default: break;
    }
}

/* the timeline's bar while paused on it, the profiler's view, then the tweak panel: their clicks, drags and typing are
   not the game's */
static int take_key(GameKey k, int down, int shift, int ctrl)
{
    return inspector_key(k, down, shift, ctrl) || timeline_bar_key(k, down, shift) || profile_key(k, down, shift) ||
           tweak_panel_key(k, down, ctrl);
}
static int take_mouse(float x, float y)
{
    return inspector_mouse(x, y) || timeline_bar_mouse(x, y) || tweak_panel_mouse(x, y);
}
static int take_wheel(float dy) { return inspector_wheel(dy) || tweak_panel_wheel(dy); }
static void take_text(const char *utf8) { inspector_text(utf8); tweak_panel_text(utf8); }
static int game_running(void) { return running_run()->loaded; }

const InputHooks *devtools_input_hooks(void)
{
    static const InputHooks HOOKS = { take_key,          hot_key,          take_mouse,
                                      take_wheel,        take_text,        game_running };
    return &HOOKS;
}
