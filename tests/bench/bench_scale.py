"""How the cost of a save grows with the size of the game: the sample game at 1x, 4x and 10x its lines of
code, each measured from a code save to the first step of the new code, with the compile and the link of
each save (the host's own events, as in bench_reload.py).

The bigger games are the sample plus generated code of the shape real games have: many entity kinds, each
with an update function (steering, a state machine over a table of tuning values, timers), a draw function
(sprites through the platform services), and a table of constants. The generated files are plain game
files under game/, like the sample's own, so whatever the build does with the sample's files it does with
them. Every function is used (a per-kind dispatch table in gen_kinds.cpp, reached from game_update), so the
compiler cannot skip any of it.

Each scale is measured twice, each time with its own project copy and a host on the title screen: as the
build packs it (chunks of at most GAME_CHUNK_LINES lines, a save compiles the chunks it touched), and as one
translation unit (GAME_CHUNK_LINES beyond the game's size: the whole game compiled on every save), the baseline
in the same run. In each, EDITS saves change drone_update's body in game/enemies.cpp. Keys, for each scale S in x1, x4,
x10: edit_to_reload_p50_ms_S / _p95_ms_S, stage_compile_p50_ms_S, stage_link_p50_ms_S, the same with _unity after S
for the baseline, edit_to_reload_S_vs_unity (chunked p50 over the baseline's), game_lines_S (the game's lines of
code), and edit_to_reload_growth_x10 (the 10x p50 over the 1x p50). At 1x the same saves are measured a third
time compiled as before the precompiled engine header and ccache's depend mode (GAME_PCH=0, CCACHE_NODEPEND=1):
edit_to_reload_p50_ms_x1_plain, stage_compile_p50_ms_x1_plain and edit_to_reload_x1_vs_plain.
Every wait has a timeout, and the whole benchmark stops after BENCH_TIMEOUT seconds (default 900).
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, project_copy  # noqa: E402
from benchlib import report, runs  # noqa: E402

EDITS = int(os.environ.get("BENCH_SCALE_EDITS", str(runs(7))))
SCALES = tuple(int(s) for s in os.environ.get("BENCH_SCALES", runs("1,4,10", "1")).split(","))   # quick: 1x alone
KINDS_PER_FILE = 10
BODY = "e->angle += 4.0f * dt;"


def on_alarm(sig, frame):
    raise TimeoutError(f"bench_scale: not done after {os.environ.get('BENCH_TIMEOUT', '900')} s")


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def game_lines(root):
    game = os.path.join(root, "game")
    return sum(read(os.path.join(game, f)).count("\n") for f in os.listdir(game)
               if f.endswith((".cpp", ".h")) and f != "game_api.h")


def kind_source(k):
    """One generated entity kind: about 110 lines of tuning table, update and draw."""
    t = [f"{0.5 + ((k * 7 + i * 13) % 97) / 10.0:.2f}f" for i in range(24)]
    return f"""
/* ---------------------------------------------------------------- kind {k} */
static const float GEN{k}_TUNING[24] = {{
    {", ".join(t[:8])},
    {", ".join(t[8:16])},
    {", ".join(t[16:])},
}};
enum Gen{k}Phase {{ GEN{k}_IDLE, GEN{k}_SEEK, GEN{k}_CIRCLE, GEN{k}_WINDUP, GEN{k}_LUNGE, GEN{k}_RECOVER }};

static v2 gen{k}_steer(v2 pos, v2 vel, v2 target, float max_speed, float max_force)
{{
    v2 want = v2_sub(target, pos);
    float d = v2_len(want);
    if (d < 1e-4f) return v2_make(0, 0);
    float speed = d < GEN{k}_TUNING[0] * 100.0f ? max_speed * d / (GEN{k}_TUNING[0] * 100.0f) : max_speed;
    want = v2_scale(want, speed / d);
    v2 force = v2_sub(want, vel);
    float f = v2_len(force);
    if (f > max_force) force = v2_scale(force, max_force / f);
    return force;
}}

void gen{k}_update(Entity *e, v2 target, float dt)
{{
    const float *tune = GEN{k}_TUNING;
    e->timer -= dt;
    switch (e->phase) {{
    case GEN{k}_IDLE:
        if (v2_dist(e->pos, target) < tune[1] * 300.0f) {{ e->phase = GEN{k}_SEEK; e->timer = tune[2]; }}
        e->vel = v2_scale(e->vel, th_maxf(0.0f, 1.0f - tune[3] * dt));
        break;
    case GEN{k}_SEEK: {{
        v2 f = gen{k}_steer(e->pos, e->vel, target, tune[4] * 60.0f, tune[5] * 200.0f);
        e->vel = v2_add(e->vel, v2_scale(f, dt));
        if (v2_dist(e->pos, target) < tune[6] * 120.0f) {{ e->phase = GEN{k}_CIRCLE; e->timer = tune[7]; }}
        break;
    }}
    case GEN{k}_CIRCLE: {{
        v2 to = v2_sub(target, e->pos);
        v2 side = v2_perp(v2_norm(to));
        float orbit = tune[8] * 90.0f;
        v2 goal = v2_add(target, v2_scale(side, orbit));
        v2 f = gen{k}_steer(e->pos, e->vel, goal, tune[9] * 70.0f, tune[10] * 220.0f);
        e->vel = v2_add(e->vel, v2_scale(f, dt));
        if (e->timer <= 0) {{ e->phase = GEN{k}_WINDUP; e->timer = tune[11] * 0.3f; }}
        break;
    }}
    case GEN{k}_WINDUP:
        e->vel = v2_scale(e->vel, th_maxf(0.0f, 1.0f - tune[12] * 4.0f * dt));
        e->angle = th_wrap_anglef(e->angle + tune[13] * 12.0f * dt);
        e->flash = th_approachf(e->flash, 1.0f, tune[14] * dt);
        if (e->timer <= 0) {{
            e->phase = GEN{k}_LUNGE;
            e->timer = tune[15] * 0.2f;
            e->vel = v2_scale(v2_norm(v2_sub(target, e->pos)), tune[16] * 150.0f);
        }}
        break;
    case GEN{k}_LUNGE:
        e->flash = th_approachf(e->flash, 0.0f, 2.0f * dt);
        if (e->timer <= 0) {{ e->phase = GEN{k}_RECOVER; e->timer = tune[17]; }}
        break;
    default:
        e->vel = v2_scale(e->vel, th_maxf(0.0f, 1.0f - tune[18] * dt));
        if (e->timer <= 0) e->phase = GEN{k}_IDLE;
        break;
    }}
    float speed = v2_len(e->vel);
    float cap = tune[19] * 180.0f;
    if (speed > cap) e->vel = v2_scale(e->vel, cap / speed);
    e->pos = v2_add(e->pos, v2_scale(e->vel, dt));
    if (speed > 1.0f) e->angle = th_lerpf(e->angle, atan2f(e->vel.y, e->vel.x), th_minf(1.0f, tune[20] * dt));
}}

void gen{k}_draw(const Entity *e, const PlatformAPI *pf, uint32_t sprite, float alpha)
{{
    const float *tune = GEN{k}_TUNING;
    float pulse = 0.5f + 0.5f * sinf(e->timer * tune[21] * 6.0f);
    float s = 1.0f + 0.15f * pulse + 0.3f * e->flash;
    GameSprite body = {{}};
    body.sprite = sprite;
    body.color = 0xFFFFFF00u | (uint32_t)(th_clampf(alpha, 0.0f, 1.0f) * 255.0f);
    body.x = e->pos.x;
    body.y = e->pos.y;
    body.scale_x = body.scale_y = s * tune[22];
    body.rotation = e->angle;
    body.origin_x = body.origin_y = 0.5f;
    body.layer = 10;
    pf->draw_sprite(&body);
    if (e->phase == GEN{k}_WINDUP) {{
        GameSprite ring = body;
        ring.scale_x = ring.scale_y = s * tune[23] * (1.0f + e->flash);
        ring.color = 0xFF4040FFu;
        ring.layer = 11;
        pf->draw_sprite(&ring);
    }}
}}
"""


def scale_game(root, scale):
    """Adds generated kinds until the game has about `scale` times the sample's lines; returns the lines."""
    base = game_lines(root)
    if scale == 1:
        return base
    per_kind = kind_source(0).count("\n")
    kinds = int((scale - 1) * base / per_kind + 0.5)
    game = os.path.join(root, "game")
    names = []
    for f in range(0, kinds, KINDS_PER_FILE):
        name = f"gen_kinds_{f // KINDS_PER_FILE:02}.cpp"
        body = "".join(kind_source(k) for k in range(f, min(kinds, f + KINDS_PER_FILE)))
        write(os.path.join(game, name), f"/* {name} - generated entity kinds (tests/bench/bench_scale.py) */\n"
              f'#include "game.h"\n{body}')
        names.append(name)
    decls = "".join(f"void gen{k}_update(Entity *e, v2 target, float dt);\n"
                    f"void gen{k}_draw(const Entity *e, const PlatformAPI *pf, uint32_t sprite, float alpha);\n" for k in range(kinds))
    table = "".join(f"    {{gen{k}_update, gen{k}_draw}},\n" for k in range(kinds))
    dispatch = f"""/* gen_kinds.cpp - the generated kinds' table (tests/bench/bench_scale.py) */
#include "game.h"
{decls}
typedef struct GenKind {{ void (*update)(Entity *, v2, float); void (*draw)(const Entity *, const PlatformAPI *, uint32_t, float); }} GenKind;
static const GenKind GEN_KINDS[{kinds}] = {{
{table}}};
/* Reached from game_update, so no kind is dead code; steps one scratch entity through a few kinds. */
void gen_kinds_step(GameState *gs, const PlatformAPI *pf, float dt)
{{
    static Entity scratch;
    for (uint32_t i = 0; i < 4; i++) {{
        const GenKind *k = &GEN_KINDS[(gs->steps + i) % {kinds}];
        k->update(&scratch, v2_make(100, 100), dt);
        if (gs->steps == 0xFFFFFFFFFFFFull) k->draw(&scratch, pf, 0, 1.0f);
    }}
}}
"""
    write(os.path.join(game, "gen_kinds.cpp"), dispatch)
    gcpp = os.path.join(game, "game.cpp")
    src = read(gcpp)
    # call the dispatch at the start of every update (the generated files are the game's own translation units)
    i = src.rindex("\n", 0, src.index("GAME_UPDATE(game_update)")) + 1
    src = src[:i] + "void gen_kinds_step(GameState *gs, const PlatformAPI *pf, float dt);\n" + src[i:]
    i = src.index("GAME_UPDATE(game_update)")
    j = src.index("{", i) + 1
    src = src[:j] + "\n    gen_kinds_step((GameState *)mem->base, pf, 1.0f / 60.0f);" + src[j:]
    write(gcpp, src)
    return game_lines(root)


# The compile as it was before the precompiled engine header and ccache's depend mode (docs/design.md), in the same
# run: each chunk parses game_engine.h, and ccache runs the preprocessor before the compiler.
PLAIN = {"GAME_PCH": "0", "CCACHE_NODEPEND": "1"}


def measure(scale, unity=False, extra_env=None):
    """The edits at one scale; unity: the whole game as one translation unit (one chunk), the baseline."""
    root = project_copy()
    env = dict(os.environ)
    env.update(extra_env or {})
    if unity:
        env["GAME_CHUNK_LINES"] = "100000000"
    try:
        lines = scale_game(root, scale)
        p = subprocess.run(["bash", os.path.join(root, "build.sh"), "game"], capture_output=True, text=True, timeout=600, env=env)
        assert p.returncode == 0, f"bench_scale x{scale}: build.sh game failed:\n{p.stderr[-3000:]}"
        ents = os.path.join(root, "game", "enemies.cpp")
        original = read(ents)
        assert BODY in original, "bench_scale: the edit site in enemies.cpp moved"
        host = Host(root, env=env)
        host.wait_ev("new_code_running", version=1, timeout=60)
        rows, version = [], 1
        for i in range(EDITS):
            m = host.mark()
            written = time.time()
            write(ents, original.replace(BODY, f"e->angle += {4 + i % 4}.{i + 1}f * dt;"))
            ran = host.wait_for(lambda e: e.get("ev") == "new_code_running" and e["version"] > version, 120, m,
                                what=f"x{scale} edit {i} running")
            version = ran["version"]
            start = [e for e in host.of("build_start", m)][-1]
            comp = [e for e in host.of("build_stage", m) if e.get("stage") == "compile"]
            link = [e for e in host.of("build_stage", m) if e.get("stage") == "link"]
            rows.append({"total": (ran["wall"] - written) * 1000.0,
                         "compile": (comp[-1]["wall"] - start["wall"]) * 1000.0 if comp else 0.0,
                         "link": (link[-1]["wall"] - comp[-1]["wall"]) * 1000.0 if comp and link else 0.0})
            print(f"x{scale}{' unity' if unity else ''} edit {i}: {rows[-1]['total']:.1f} ms (compile {rows[-1]['compile']:.1f}, "
                  f"link {rows[-1]['link']:.1f})", file=sys.stderr)
            time.sleep(0.3)
        host.stop()
        return lines, rows
    finally:
        cleanup(root)


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(os.environ.get("BENCH_TIMEOUT", "900")))
    result = {}
    for s in SCALES:
        for unity in (False, True):
            lines, rows = measure(s, unity)
            tag = f"x{s}_unity" if unity else f"x{s}"
            totals = [r["total"] for r in rows]
            result[f"game_lines_x{s}"] = lines
            result[f"edit_to_reload_p50_ms_{tag}"] = round(statistics.median(totals), 1)
            result[f"edit_to_reload_p95_ms_{tag}"] = round(pct(totals, 0.95), 1)
            result[f"stage_compile_p50_ms_{tag}"] = round(statistics.median(r["compile"] for r in rows), 1)
            result[f"stage_link_p50_ms_{tag}"] = round(statistics.median(r["link"] for r in rows), 1)
        result[f"edit_to_reload_x{s}_vs_unity"] = round(result[f"edit_to_reload_p50_ms_x{s}"] / result[f"edit_to_reload_p50_ms_x{s}_unity"], 2)
    if 1 in SCALES:   # the same saves compiled without the precompiled header and ccache's depend mode
        lines, rows = measure(1, extra_env=PLAIN)
        result["edit_to_reload_p50_ms_x1_plain"] = round(statistics.median(r["total"] for r in rows), 1)
        result["stage_compile_p50_ms_x1_plain"] = round(statistics.median(r["compile"] for r in rows), 1)
        result["edit_to_reload_x1_vs_plain"] = round(result["edit_to_reload_p50_ms_x1"] /
                                                     result["edit_to_reload_p50_ms_x1_plain"], 2)
    if "edit_to_reload_p50_ms_x10" in result and "edit_to_reload_p50_ms_x1" in result:
        result["edit_to_reload_growth_x10"] = round(result["edit_to_reload_p50_ms_x10"] / result["edit_to_reload_p50_ms_x1"], 2)
    signal.alarm(0)
    report(result)


if __name__ == "__main__":
    main()
