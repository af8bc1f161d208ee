"""End to end: what a game hands the host through the contract is checked, never trusted.

Each case injects code into game/game.cpp on a temporary copy, waits for it to run, checks what the
host did with it, and removes it again (also when the case fails, so the next case starts clean):
- GameMemory rewritten: base set to 0 after every update, size and used set to 1 << 44 after every
  render. The host hands out a copy and reads back only `used`, clamped to the block.
- pf->event with a newline and a forged "ev" in its fields: every line of the event log stays one
  valid JSON object, nothing forged appears, the refused fields are kept as text.
- pf->read_file outside the project (a "..", an absolute path, a symlink out of the project, a sibling folder
  whose name starts with the project's: <root>2/, by absolute and by relative path), a negative and a huge cap:
  each refused with -1; a file of the project still reads.
- the map services (a map copied into the engine's assets/maps): NULL outputs, negative and huge first/cap, NULL
  and overlong names, unknown ids and object ids, a NaN, infinite or tiny-zoom camera before map_draw: each
  answers 0 (the valid calls beside them still answer), the host runs on.
- NaN and infinities into every sound service (sound_bus volume and fade, sound_play's volume, pan,
  pitch, fade and cooldown, sound_set, sound_stop), then sound_bus(..., 1, 0) every step: no NaN
  ever reaches the output (SDL's disk audio driver writes it to a file) and the music is heard again.
- The Aseprite queries (sprite_anim_info, sprite_slice) with NULL out and name pointers, names with no NUL in
  their first hundred bytes, ids no file has, every step: each answers 0, reads no byte past its name limit,
  and says each missing name once, not every step.
ASAN_SCENARIO: also run against the sanitizer build of the host.
"""
import array
import math
import os
import shutil
import tempfile

from hostlib import ROOT, Checks, Host, check, end_run, inject, input_script, project_copy, uninject

checks = Checks()
root = project_copy()
os.makedirs(os.path.join(root, "assets", "maps"), exist_ok=True)
shutil.copy(os.path.join(ROOT, "tests", "data", "tiled", "cave.tmj"), os.path.join(root, "assets", "maps", "probe.tmj"))
game_cpp = os.path.join(root, "game", "game.cpp")
audio_out = os.path.join(root, "audio.raw")
script = input_script(root, "5 tap F10\n")   # the bot plays: shots, music
host = Host(root, "--memory", "64", "--input", script,
            env={"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": audio_out})


def stats(since, version=None, timeout=30):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {})
                         and (version is None or e.get("version") == version), timeout, since,
                         what=f"frame_stats (version {version})")


def injected(entry_code, body):
    """Runs body(reload) with the code injected; the code is always taken out again afterwards, and the
    case waits until the clean build has replaced it (so one failing case never leaves code behind)."""
    m = host.mark()
    for entry, code in entry_code:
        inject(game_cpp, entry, code)
    try:
        r = host.next_reload(m)
        body(r)
    finally:
        m2 = host.mark()
        uninject(game_cpp)
        if host.alive():
            back = host.next_reload(m2)
            check(back["state"] == "kept", f"the clean code did not load over the kept state: {back}")


def startup():
    host.wait_ev("new_code_running", timeout=30)
    stats(0)


def game_memory_rewritten():
    before = stats(host.mark())

    def body(r):
        host.wait_ev("new_code_running", version=r["version"], timeout=30, since=0)
        s = [stats(host.mark(), version=r["version"]) for _ in range(3)]
        check(not host.of("crash"), f"the game crashed: {host.of('crash')}")
        check(all(0 < x["mem_used"] <= 64 << 20 for x in s), f"used outside the block: {[x['mem_used'] for x in s]}")
        check(s[-1]["game"]["steps"] > before["game"]["steps"], "the game stopped stepping")
    injected([("GAME_UPDATE(game_update)", "struct Z_ { GameMemory *m; ~Z_() { m->base = 0; } } z_ = { mem };"),
              ("GAME_RENDER(game_render)",
               "struct Z_ { GameMemory *m; ~Z_() { m->size = m->used = 1ull << 44; } } z_ = { mem };")], body)
    after = stats(host.mark())
    check(after["game"]["steps"] > before["game"]["steps"], f"state lost: {before['game']} -> {after['game']}")
    check(not host.of("crash"), f"a crash: {host.of('crash')}")


def event_fields_forged():
    def body(r):
        m = host.mark()
        host.wait_for(lambda e: e.get("ev") == "game" and e.get("name") == "probe_ok", 20, m, what="probe events")
        stats(host.mark())   # a second later: every probe kind has been written a few times
        games = [e for e in host.events[m:] if e.get("ev") == "game" and e.get("name", "").startswith("probe")]
        check(not host.of("crash", m), f"a forged crash event: {host.of('crash', m)}")
        newline = [e for e in games if e["name"] == "probe_newline"]
        forged = [e for e in games if e["name"] == "probe_ev"]
        ok = [e for e in games if e["name"] == "probe_ok"]
        check(newline and all("fields_refused" in e and '{"ev":"crash"' in e["fields_text"] for e in newline),
              f"the newline fields were not refused and kept as text: {newline[:2]}")
        check(forged and all(e["ev"] == "game" and "fields_refused" in e for e in forged), f"forged ev: {forged[:2]}")
        check(ok and all(e.get("n") == 1 and e.get("s") == "a\nb" and e.get("list") == [1, 2] for e in ok),
              f"valid fields (whitespace across lines, an escaped newline) were not kept: {ok[:2]}")
    injected([("GAME_UPDATE(game_update)",
               'if (in->step % 10 == 0) { pf->event("probe_newline", "\\"a\\":1}\\n{\\"ev\\":\\"crash\\",\\"x\\":1"); '
               'pf->event("probe_ev", "\\"ev\\":\\"crash\\""); '
               'pf->event("probe_ok", "\\"n\\":1,\\n \\"s\\":\\"a\\\\nb\\",\\t\\"list\\":[1,\\n2]"); }')], body)


def read_file_stays_inside():
    secret_dir = tempfile.mkdtemp(prefix="outside-")
    secret = os.path.join(secret_dir, "secret.txt")
    with open(secret, "w") as f:
        f.write("outside the project\n")
    os.symlink(secret, os.path.join(root, "link_out.txt"))
    rel = os.path.relpath(secret, root)   # ../../outside-xxx/secret.txt
    check(rel.startswith(".."), f"not a relative way out: {rel}")
    # a sibling whose name has the project folder's name as a prefix: "below" must mean below the folder,
    # not a string that starts with its name
    sibling_dir = root.rstrip("/") + "2"
    os.makedirs(sibling_dir)
    sibling = os.path.join(sibling_dir, "secret.txt")
    with open(sibling, "w") as f:
        f.write("beside the project\n")
    sibling_rel = os.path.join("..", os.path.basename(sibling_dir), "secret.txt")
    probes = [("inside", "game/state.h", 256), ("dotdot", rel, 256), ("absolute", secret, 256),
              ("etc", "/etc/hostname", 256), ("symlink", "link_out.txt", 256), ("sibling", sibling, 256),
              ("sibling_rel", sibling_rel, 256), ("negative", "game/state.h", -1),
              ("huge", "game/state.h", 1 << 62), ("directory", "game", 256)]
    calls = " ".join(f'r[{i}] = pf->read_file("{path}", buf, {cap}ll);' for i, (_, path, cap) in enumerate(probes))
    fields = ",".join(f'\\"{name}\\":%lld' for name, _, _ in probes)
    args = ", ".join(f"(long long)r[{i}]" for i in range(len(probes)))
    code = (f"if (in->step % 30 == 0) {{ static char buf[256]; long long r[{len(probes)}]; {calls} "
            f'char f[512]; snprintf(f, sizeof f, "{fields}", {args}); pf->event("read_probe", f); }}')

    def body(r):
        e = host.wait_for(lambda e: e.get("ev") == "game" and e.get("name") == "read_probe", 20, host.mark(),
                          what="read_probe")
        check(e["inside"] > 0, f"a file of the project did not read: {e}")
        for name in ("dotdot", "absolute", "etc", "symlink", "sibling", "sibling_rel", "negative", "huge", "directory"):
            check(e[name] == -1, f"read_file {name} was not refused: {e}")
        logs = [x["msg"] for x in host.of("log") if x.get("level") == "warn" and "read_file" in x.get("msg", "")]
        check(any("outside the game's folder and the project" in x and "secret.txt" in x for x in logs), f"no message naming the file: {logs[-6:]}")
        check(any("buffer size -1" in x for x in logs), f"no message for the negative cap: {logs[-6:]}")
    try:
        injected([("GAME_UPDATE(game_update)", code)], body)
    finally:
        os.remove(os.path.join(root, "link_out.txt"))
        os.remove(secret)
        os.rmdir(secret_dir)
        os.remove(sibling)
        os.rmdir(sibling_dir)


def read_audio():
    with open(audio_out, "rb") as f:
        data = f.read()
    a = array.array("f")
    a.frombytes(data[: len(data) // 8 * 8])
    return a


def nan_into_every_sound_service():
    host.wait_for(lambda e: e.get("ev") == "sound_play" and e["name"] == "music/loop", 30, what="music start")
    code = ("{ const float B[3] = { __builtin_nanf(\"\"), __builtin_inff(), -__builtin_inff() }; "
            "if (in->step % 20 == 0) { for (int b = 0; b < 3; b++) for (int k = 0; k < 3; k++) "
            "{ pf->sound_bus(b, B[k], 0); pf->sound_bus(b, 1, B[k]); } "
            "for (int k = 0; k < 3; k++) { GameSoundPlay h = { B[k], B[k], B[k], B[k], B[k], SOUND_BUS_EFFECTS, 0, 0, SOUND_LOOP }; "
            "uint32_t v = pf->sound_play(game_sound_id(\"player/shot\"), &h); pf->sound_set(v, B[k], B[k], B[k]); "
            "pf->sound_stop(v, B[k]); } } "
            "for (int b = 0; b < 3; b++) pf->sound_bus(b, 1, 0); }")

    def body(r):
        host.wait_ev("new_code_running", version=r["version"], timeout=30, since=0)
        start = len(read_audio()) // 2
        stats(host.mark())
        stats(host.mark())   # two seconds of the poisoned calls, every 20 steps
        a = read_audio()
        frames = len(a) // 2
        check(frames > start + 48000, f"too little audio written: {frames - start} frames")
        bad = sum(1 for i in range(2 * start, len(a)) if not math.isfinite(a[i]))
        check(bad == 0, f"{bad} samples NaN or infinite in the output")
        tail = max(abs(a[i]) for i in range(len(a) - 2 * 24000, len(a)))
        check(tail > 0.01, f"silence after the calls: peak {tail:.4f} in the last half second")
    injected([("GAME_UPDATE(game_update)", code)], body)


def map_services_checked():
    calls = [
        ("info_null", "pf->map_info(id, NULL)", 0),
        ("info_unknown", "pf->map_info(0xDEADBEEFu, &mi)", 0),
        ("objects_negative", "pf->map_objects(id, -5, mo, 2)", 0),
        ("objects_past_end", "pf->map_objects(id, 1 << 30, mo, 2)", 0),
        ("objects_cap_negative", "pf->map_objects(id, 0, mo, -1)", 0),
        ("objects_null", "pf->map_objects(id, 0, NULL, 2)", 0),
        ("solids_negative", "pf->map_solids(id, -1, mb, 2)", 0),
        ("solids_null", "pf->map_solids(id, 0, NULL, 5)", 0),
        ("solids_past_end", "pf->map_solids(id, 0x7fffffff, mb, 2)", 0),
        ("property_null_name", "pf->map_property(id, 0, NULL, &mv)", 0),
        ("property_null_out", "pf->map_property(id, 0, \"title\", NULL)", 0),
        ("property_unknown_object", "pf->map_property(id, 0xFFFFFFFFu, \"value\", &mv)", 0),
        ("property_long_name", "pf->map_property(id, 0, big, &mv)", 0),
        ("draw_long_layer", "pf->map_draw(id, big, 0)", 0),
        ("draw_nan_camera", "(pf->set_camera(__builtin_nanf(\"\"), __builtin_inff(), 1), pf->map_draw(id, NULL, 0))", 0),
        ("draw_inf_camera", "(pf->set_camera(-__builtin_inff(), 1e30f, 1), pf->map_draw(id, NULL, 0))", 0),
        ("draw_tiny_zoom", "(pf->set_camera(0, 0, 1e-30f), pf->map_draw(id, NULL, 0))", 1),
        ("objects_ok", "pf->map_objects(id, 0, mo, 2)", 2),
        ("info_ok", "pf->map_info(id, &mi)", 1),
    ]
    body_calls = " ".join(f"r[{i}] = {c};" for i, (_, c, _) in enumerate(calls))
    fields = ",".join(f'\\"{name}\\":%d' for name, _, _ in calls)
    args = ", ".join(f"r[{i}]" for i in range(len(calls)))
    code = (f"if (in->step % 30 == 0) {{ uint32_t id = game_map_id(\"probe\"); GameMapInfo mi; GameMapObject mo[2]; "
            f"GameMapBox mb[2]; GameMapValue mv; char big[300]; memset(big, 'a', sizeof big - 1); big[299] = 0; "
            f"int r[{len(calls)}]; {body_calls} "
            f'char f[1024]; snprintf(f, sizeof f, "{fields}", {args}); pf->event("map_probe", f); }}')

    def body(r):
        e = host.wait_for(lambda e: e.get("ev") == "game" and e.get("name") == "map_probe", 20, host.mark(),
                          what="map_probe")
        for name, _, want in calls:
            got = e[name]
            check(got == want if name != "draw_tiny_zoom" else got > 0, f"map service {name}: {got}, want {want}: {e}")
        check(host.alive(), "the host died in a map service")
    injected([("GAME_UPDATE(game_update)", code)], body)


checks.case("startup", startup)
checks.case("game_memory_rewritten", game_memory_rewritten)
checks.case("event_fields_forged", event_fields_forged)
checks.case("read_file_stays_inside", read_file_stays_inside)
checks.case("nan_into_every_sound_service", nan_into_every_sound_service)


def sprite_queries_refuse_bad_pointers():
    def body(r):
        m = host.events.index(r)   # from the reload on: the first step's reports may come in with the reload event
        host.wait_for(lambda e: e.get("ev") == "game" and e.get("name") == "sprite_probe", 20, m, what="probe events")
        first = stats(host.mark(), version=r["version"])
        later = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == r["version"]
                              and e["game"]["steps"] > first["game"]["steps"] + 120, 30, m, what="120 more steps")
        probes = [e for e in host.of("game", m) if e.get("name") == "sprite_probe"]
        check(probes and all(e.get("answers") == 0 for e in probes), f"a query with a bad argument answered: {probes[:3]}")
        check(not host.of("crash", m), f"a crash: {host.of('crash', m)}")
        missing = host.of("anim_missing", m) + host.of("slice_missing", m)
        check(0 < len(missing) <= 8, f"missing names said once each, not every step: {len(missing)} events")
        check(later["game"]["steps"] > first["game"]["steps"], "the game stopped stepping")
    injected([("GAME_UPDATE(game_update)",
               "{ char raw[100]; for (int i = 0; i < 100; i++) raw[i] = 'x'; GameAnimInfo info; GameSlice sl; "
               "int n = pf->sprite_anim_info(game_sprite_id(\"nope\"), \"idle\", 0) "
               "+ pf->sprite_anim_info(game_sprite_id(\"nope\"), raw, &info) "
               "+ pf->sprite_anim_info(0, 0, &info) + pf->sprite_anim_info(0xFFFFFFFFu, \"\", &info) "
               "+ pf->sprite_slice(game_sprite_id(\"nope\"), \"hitbox\", 0) "
               "+ pf->sprite_slice(game_sprite_id(\"nope\"), raw, &sl) + pf->sprite_slice(0, 0, &sl) "
               "+ pf->sprite_slice(1, \"\", &sl); "
               "if (in->step % 10 == 0) { char f[32]; snprintf(f, sizeof f, \"\\\"answers\\\":%d\", n); "
               "pf->event(\"sprite_probe\", f); } }")], body)


checks.case("sprite_queries_refuse_bad_pointers", sprite_queries_refuse_bad_pointers)
checks.case("map_services_checked", map_services_checked)
end_run(checks, host, root, tail=60)
