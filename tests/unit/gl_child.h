/* gl_child.h - a test or benchmark that measures SDL's OpenGL renderer as well as its software one: the
   program starts itself again as a child with the argument "gl", under a virtual X server (xvfb-run) with
   Mesa's software GL (llvmpipe; the suite's machines have no GPU). Included after SDL.h and <string>. */
#ifndef GL_CHILD_H
#define GL_CHILD_H
#include <stdio.h>
#include <stdlib.h>

/* The video driver and render hint for this process: X11 and OpenGL in the child, offscreen and the
   software renderer otherwise. Before SDL_Init. */
static inline void gl_child_video(bool gl)
{
    if (gl) {
        setenv("SDL_VIDEODRIVER", "x11", 1);
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "opengl");
    } else {
        setenv("SDL_VIDEODRIVER", "offscreen", 1);
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    }
}

/* The command that runs `self gl` under xvfb-run at WxH (extra: more `env` assignments, or ""). */
static inline std::string gl_child_command(const std::string &self, int w, int h, const std::string &extra)
{
    char screen[64];
    snprintf(screen, sizeof screen, "%dx%dx24", w, h);
    return "xvfb-run -a -s '-screen 0 " + std::string(screen) + "' env LIBGL_ALWAYS_SOFTWARE=1 " + extra + " '" + self + "' gl";
}

/* A benchmark's child: runs it and returns the fields of the JSON line it printed (without the braces), to be
   merged into the parent's line; "" when it failed or printed none. */
static inline std::string gl_child_fields(const std::string &self, int w, int h)
{
    std::string fields;
    if (FILE *p = popen(gl_child_command(self, w, h, "").c_str(), "r")) {
        char line[512];
        while (fgets(line, sizeof line, p))
            if (line[0] == '{') { fields = line; fields = fields.substr(1, fields.find('}') - 1); }
        if (pclose(p) != 0) fields.clear();
    }
    return fields;
}
#endif
