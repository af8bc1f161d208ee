/* input.cpp - SDL events and --input scripts become the GameInput of each fixed step. What the developer's tools
   take first (the hot keys, the profiler's view, the F4 panel) they take through InputHooks, registered at start
   (devtools/hotkeys.cpp). */
#include "services.h"

#include <SDL.h>

#include <stdlib.h>
#include <string.h>

static const struct { SDL_Scancode sc; GameKey key; } KEYMAP[] = {
#define K(l) { SDL_SCANCODE_##l, KEY_##l }
    K(A), K(B), K(C), K(D), K(E), K(F), K(G), K(H), K(I), K(J), K(K), K(L), K(M), K(N), K(O), K(P), K(Q), K(R),
    K(S), K(T), K(U), K(V), K(W), K(X), K(Y), K(Z), K(0), K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9),
    K(UP), K(DOWN), K(LEFT), K(RIGHT), K(SPACE), K(ESCAPE), K(TAB), K(BACKSPACE), K(LSHIFT), K(RSHIFT),
    K(LCTRL), K(RCTRL), K(LALT), K(RALT), K(F1), K(F2), K(F3), K(F4), K(F5), K(F6), K(F7), K(F8), K(F9), K(F10),
    K(F11), K(F12),
#undef K
    { SDL_SCANCODE_RETURN, KEY_ENTER },
};

static const struct { SDL_GameControllerButton b; GameKey key; } PADMAP[] = {
    { SDL_CONTROLLER_BUTTON_A, KEY_PAD_A }, { SDL_CONTROLLER_BUTTON_B, KEY_PAD_B },
    { SDL_CONTROLLER_BUTTON_X, KEY_PAD_X }, { SDL_CONTROLLER_BUTTON_Y, KEY_PAD_Y },
    { SDL_CONTROLLER_BUTTON_START, KEY_PAD_START }, { SDL_CONTROLLER_BUTTON_BACK, KEY_PAD_BACK },
    { SDL_CONTROLLER_BUTTON_LEFTSHOULDER, KEY_PAD_LB }, { SDL_CONTROLLER_BUTTON_RIGHTSHOULDER, KEY_PAD_RB },
    { SDL_CONTROLLER_BUTTON_DPAD_UP, KEY_PAD_UP }, { SDL_CONTROLLER_BUTTON_DPAD_DOWN, KEY_PAD_DOWN },
    { SDL_CONTROLLER_BUTTON_DPAD_LEFT, KEY_PAD_LEFT }, { SDL_CONTROLLER_BUTTON_DPAD_RIGHT, KEY_PAD_RIGHT },
};

/* The live input state, fed by SDL and by scripted events; each step copies it into a GameInput. */
static struct {
    uint8_t down[KEY_COUNT];
    uint8_t went_down[KEY_COUNT];   /* since the last step: a tap shorter than a step still counts */
    uint8_t went_up[KEY_COUNT];
    float   axis[AXIS_COUNT];
    float   mouse_x, mouse_y, wheel;
    SDL_GameController *pad;
} g_input;

/* --input: events by step number, and those by frame number ("@F ...") */
static struct { ScriptEvent *ev; int count, next; } g_script;
static struct { ScriptEvent *ev; int count, next; int pending_up[KEY_COUNT]; } g_frame_script;

static InputHooks g_hooks;
void input_set_hooks(const InputHooks *hooks) { g_hooks = *hooks; }

/* ---------------------------------------------------------------- live state */
static void input_key(GameKey k, int down)
{
    if (k <= KEY_NONE || k >= KEY_COUNT) return;
    int dev = options()->dev_keys;   /* always on in development; a player's F-keys are the game's */
    /* the developer's tools take their keys first; a key the game saw go down still reaches it going up */
    if (dev && (down || !g_input.down[k]) && g_hooks.key &&
        g_hooks.key(k, down, g_input.down[KEY_LSHIFT] || g_input.down[KEY_RSHIFT],
                    g_input.down[KEY_LCTRL] || g_input.down[KEY_RCTRL]))
        return;
    if (down && !g_input.down[k]) {
        g_input.went_down[k] = 1;
        if (dev && k >= KEY_F1 && k <= KEY_F12 && g_hooks.hot_key) g_hooks.hot_key(k);
    }
    if (!down && g_input.down[k]) g_input.went_up[k] = 1;
    g_input.down[k] = (uint8_t)down;
}

/* The pointer: the panel sees every move; the game the ones the panel does not take. */
static void mouse_to(float x, float y)
{
    if (g_hooks.mouse && g_hooks.mouse(x, y)) return;
    g_input.mouse_x = x;
    g_input.mouse_y = y;
}

static float axis_value(Sint16 raw, int trigger)
{
    float v = raw / 32767.0f;
    if (v < -1) v = -1;
    float dead = trigger ? 0.05f : 0.2f;
    if (v > -dead && v < dead) return 0;
    return v > 0 ? (v - dead) / (1 - dead) : (v + dead) / (1 - dead);
}

void input_handle_event(const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT: frame_loop()->quit = 1; break;
    case SDL_KEYDOWN: case SDL_KEYUP:
        if (e->key.repeat) break;
        /* Esc belongs to the game (its pause menu); with no game running it quits */
        if (e->key.keysym.scancode == SDL_SCANCODE_ESCAPE && e->type == SDL_KEYDOWN && g_hooks.game_running &&
            !g_hooks.game_running()) {
            frame_loop()->quit = 1;
            break;
        }
        for (auto &k : KEYMAP) if (k.sc == e->key.keysym.scancode) input_key(k.key, e->type == SDL_KEYDOWN);
        break;
    case SDL_MOUSEMOTION: mouse_to((float)e->motion.x, (float)e->motion.y); break;
    case SDL_TEXTINPUT: if (g_hooks.text) g_hooks.text(e->text.text); break;
    case SDL_MOUSEBUTTONDOWN: case SDL_MOUSEBUTTONUP: {
        GameKey k = e->button.button == SDL_BUTTON_LEFT    ? KEY_MOUSE_LEFT
                    : e->button.button == SDL_BUTTON_RIGHT ? KEY_MOUSE_RIGHT
                                                           : KEY_MOUSE_MIDDLE;
        input_key(k, e->type == SDL_MOUSEBUTTONDOWN);
    } break;
    case SDL_MOUSEWHEEL:
        if (!g_hooks.wheel || !g_hooks.wheel((float)e->wheel.y)) g_input.wheel += (float)e->wheel.y;
        break;
    case SDL_CONTROLLERDEVICEADDED:
        if (!g_input.pad) {
            g_input.pad = SDL_GameControllerOpen(e->cdevice.which);
            if (g_input.pad) log_message(LOG_INFO, "gamepad: %s", SDL_GameControllerName(g_input.pad));
        }
        break;
    case SDL_CONTROLLERDEVICEREMOVED:
        if (g_input.pad && SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(g_input.pad)) == e->cdevice.which) {
            SDL_GameControllerClose(g_input.pad); g_input.pad = NULL; memset(g_input.axis, 0, sizeof g_input.axis);
        }
        break;
    case SDL_CONTROLLERBUTTONDOWN: case SDL_CONTROLLERBUTTONUP:
        for (auto &p : PADMAP) if (p.b == e->cbutton.button) input_key(p.key, e->type == SDL_CONTROLLERBUTTONDOWN);
        break;
    case SDL_CONTROLLERAXISMOTION:
        if (e->caxis.axis < AXIS_COUNT)
            g_input.axis[e->caxis.axis] = axis_value(e->caxis.value, e->caxis.axis >= SDL_CONTROLLER_AXIS_TRIGGERLEFT);
        break;
    default: break;
    }
}

/* ---------------------------------------------------------------- scripted input (--input) */
int input_init(void)
{
    const char *path = options()->input_path;
    if (!path) return 1;
    char *text = os_read_file(path, NULL, 64u << 20);
    if (!text) { fprintf(stderr, "host: --input %s: %s\n", path, os_error_text()); return 0; }
    char err[512];
    int ok = parse_script(text, path, &g_script.ev, &g_script.count, err, sizeof err);
    free(text);
    if (!ok) { fprintf(stderr, "host: %s\n", err); return 0; }
    /* the frame events apart (in their order): they apply whether steps run or not */
    int steps = 0;
    g_frame_script.ev = (ScriptEvent *)malloc(sizeof(ScriptEvent) * (size_t)(g_script.count + 1));
    if (!g_frame_script.ev) return 0;
    for (int i = 0; i < g_script.count; i++) {
        if (g_script.ev[i].by_frame) g_frame_script.ev[g_frame_script.count++] = g_script.ev[i];
        else g_script.ev[steps++] = g_script.ev[i];
    }
    g_script.count = steps;
    return 1;
}

static void script_event(const ScriptEvent *e, int *pending_up)
{
    switch (e->kind) {
    case SCRIPT_DOWN: input_key((GameKey)e->key, 1); break;
    case SCRIPT_UP:   input_key((GameKey)e->key, 0); break;
    case SCRIPT_TAP:  input_key((GameKey)e->key, 1); pending_up[e->key] = 1; break;
    case SCRIPT_MOUSE: mouse_to(e->a, e->b); break;
    case SCRIPT_AXIS: g_input.axis[e->key] = e->a; break;
    case SCRIPT_QUIT: frame_loop()->quit = 1; break;
    }
}

/* Once a frame, before the steps: the script's "@F" events of this frame (a tap is up again the next frame). */
void input_frame(uint64_t frame)
{
    for (int k = 0; k < KEY_COUNT; k++)
        if (g_frame_script.pending_up[k]) { g_frame_script.pending_up[k] = 0; input_key((GameKey)k, 0); }
    while (g_frame_script.next < g_frame_script.count && g_frame_script.ev[g_frame_script.next].step <= frame)
        script_event(&g_frame_script.ev[g_frame_script.next++], g_frame_script.pending_up);
}

/* Applies the script's events for this step. A tap is down now and up on the next step. */
static void script_apply(uint64_t step)
{
    static int pending_up[KEY_COUNT];
    static int started;
    /* a hot restart goes on at the step it reached: what the script did before that is done already */
    if (!started) {
        started = 1;
        while (g_script.next < g_script.count && g_script.ev[g_script.next].step < step) g_script.next++;
    }
    for (int k = 0; k < KEY_COUNT; k++) if (pending_up[k]) { pending_up[k] = 0; input_key((GameKey)k, 0); }
    while (g_script.next < g_script.count && g_script.ev[g_script.next].step <= step) {
        script_event(&g_script.ev[g_script.next++], pending_up);
    }
}

/* The control socket's events (devtools/control.cpp), as a script's: a tap goes up after the next step. */
static struct { int tapped[KEY_COUNT], up_now[KEY_COUNT]; } g_injected;

void input_inject(const ScriptEvent *ev, int count)
{
    for (int i = 0; i < count; i++) script_event(&ev[i], g_injected.tapped);
}

/* ---------------------------------------------------------------- one step */
GameInput input_step(uint64_t step, float dt)
{
    for (int k = 0; k < KEY_COUNT; k++) {   /* taps injected before the previous step: up now */
        if (g_injected.up_now[k]) input_key((GameKey)k, 0);
        g_injected.up_now[k] = g_injected.tapped[k];
        g_injected.tapped[k] = 0;
    }
    if (g_script.count) script_apply(step);
    GameInput gi;
    memset(&gi, 0, sizeof gi);
    gi.step = step;
    gi.dt = dt;
    for (int k = 0; k < KEY_COUNT; k++) {
        gi.down[k] = g_input.down[k] || g_input.went_down[k];
        gi.pressed[k] = g_input.went_down[k];
        gi.released[k] = g_input.went_up[k];
    }
    memcpy(gi.axis, g_input.axis, sizeof gi.axis);
    gi.mouse_x = g_input.mouse_x;
    gi.mouse_y = g_input.mouse_y;
    gi.wheel = g_input.wheel;
    gi.gamepad_connected = g_input.pad != NULL;
    gi.focus_lost = (uint8_t)window_take_focus_lost();
    memset(g_input.went_down, 0, sizeof g_input.went_down);
    memset(g_input.went_up, 0, sizeof g_input.went_up);
    g_input.wheel = 0;
    return gi;
}
