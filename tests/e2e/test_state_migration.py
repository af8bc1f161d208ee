"""End to end: the running game survives edits of game/state.h.

ONE host runs the sample game with the autopilot playing, and receives a corpus of distinct state.h
edits in sequence (with the game code an edit needs, saved in the same moment): fields added (zeroed,
with a default member initializer), removed, reordered, renamed with STATE_RENAMED, ints widened and
narrowed, int to float, float to double, a fixed array bound grown and shrunk (MAX_POPUPS), MAX_ENTITIES
grown and shrunk, a nested struct added, an enum value inserted in the middle, an entity type added, a crash
in the first step after a migration. After each the host's "migrated" event
carries the game's own stats just before and just after, at the same step: mode, score, wave, steps,
entity count and kinds, the player's position must be the same, the game's consistency check must pass,
and steps must go on under the new code. At least 90% of the corpus must keep the game; the ones that
restart are listed (the corpus ends with one that must: a struct field turned into a number). The F7 loop
across an edit is test_state_migration_loop.py (its own copy and host, run beside this file).
"""
import os
import time

from hostlib import Checks, Host, check, edit, end_run, input_script, project_copy

checks = Checks()
root = project_copy()
G = os.path.join(root, "game")
STATE, ENTS, WAVES, GAME = (os.path.join(G, n) for n in ("state.h", "entities.cpp", "waves.cpp", "game.cpp"))
host = Host(root, "--input", input_script(root, "5 tap F10\n"))
KEPT = ("mode", "steps", "score", "best", "wave", "entities", "enemies", "walls", "player_handle", "player_x", "player_y",
        "player_hp", "runs", "deaths", "particles", "autopilot")
results = []   # (name, "kept" | "restarted" | ..., why)
CUTS = {"shrink_max_entities"}   # edits that cut live data by the rule: fewer entities may come out, never more
state = {"version": 1}


def apply(edits):
    """Game code first, state.h last, in one moment (one debounced batch, or a rebuild queued behind it)."""
    for path, old, new in sorted(edits, key=lambda e: e[0] == STATE):
        edit(path, old, new)


def reload_after(m, timeout=120):
    r = host.wait_for(lambda e: e.get("ev") == "reload" and e["version"] > state["version"], timeout, m,
                      what="the reload of the edit")
    state["version"] = r["version"]
    return r


def steps_go_on(m, version, after_steps):
    s = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == version
                      and e.get("game", {}).get("steps", 0) > after_steps + 30, 30, m, what="steps under the new code")
    check(s["game"]["consistent"], f"the game's own check fails under the new code: {s['game']}")
    return s


def migrated_keeps(name, edits, says):
    def case():
        m = host.mark()
        apply(edits)
        r = reload_after(m)
        if r["state"] != "migrated":
            why = [e.get("why") for e in host.of("migrate_refused", m)]
            results.append((name, r["state"], why))
            raise AssertionError(f"{name}: the state {r['state']}: {why}")
        mig = host.wait_ev("migrated", version=r["version"], timeout=10, since=m)
        b, a = mig["before"], mig["after"]
        if name in CUTS:
            # a shrunk array keeps what fits and cuts the rest (the rule); which slots hold live entities depends on
            # how long the game ran since the pool was rebuilt (freed slots go to the back of its free list), so
            # only fewer, never more, and the game's own check below
            check(a.get("entities", 0) <= b.get("entities", 0), f"{name}: more entities after a cut: {b} -> {a}")
        else:
            diff = {k: (b.get(k), a.get(k)) for k in KEPT if b.get(k) != a.get(k)}
            check(not diff, f"{name}: the game's stats changed across the migration: {diff}")
        check(a["consistent"], f"{name}: the game's own check fails right after the migration: {a}")
        check(says in mig["what"], f"{name}: the report should say {says!r}: {mig['what']!r}")
        steps_go_on(m, r["version"], a["steps"])
        check(not host.of("crash", m), f"{name}: crashed: {host.of('crash', m)}")
        results.append((name, "kept", mig["what"]))
    return case


def started():
    host.wait_ev("new_code_running", version=1, timeout=30)
    host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("mode") == 1 and e["game"].get("steps", 0) > 200,
                  60, what="the autopilot playing")


def crash_right_after_a_migration():
    m = host.mark()
    old_version = state["version"]
    apply([(STATE, "    uint64_t   steps;", "    uint64_t   steps;\n    int32_t    crash_probe;"),
           (GAME, "    gs->steps++;\n", "    gs->steps++;\n    if (gs->crash_probe == 0) { volatile int *p = 0; *p = 1; }\n")])
    r = reload_after(m)
    check(r["state"] == "migrated", f"{r}")
    mig = host.wait_ev("migrated", version=r["version"], timeout=10, since=m)
    crash = host.wait_ev("crash", timeout=30, since=m)
    check(crash["version"] == r["version"] and crash["rolled_back_to"] == old_version and not crash["halted"],
          f"the crash in the first step after the migration must roll back to version {old_version}: {crash}")
    # back on the old library and the pre-migration state: the same game as just before the edit
    s = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > crash["t"] and e.get("version", 0) > r["version"],
                      30, m, what="stats after the rollback")
    b, g = mig["before"], s["game"]
    check(g["consistent"] and g["runs"] == b["runs"] and g["steps"] >= b["steps"] and g["score"] >= b["score"],
          f"the rollback should continue the pre-migration state: before {b}, now {g}")
    state["version"] = s["version"]
    results.append(("crash_right_after_a_migration", "kept (rolled back)", crash["where"][:80]))
    # the fix: the same layout change, now without the crash, migrates the rolled-back state
    m = host.mark()
    apply([(GAME, "    if (gs->crash_probe == 0) { volatile int *p = 0; *p = 1; }\n", "")])
    r = reload_after(m)
    check(r["state"] == "migrated", f"the fixed code should migrate the rolled-back state: {r}")
    mig = host.wait_ev("migrated", version=r["version"], timeout=10, since=m)
    check("added crash_probe" in mig["what"], mig["what"])
    steps_go_on(m, r["version"], mig["after"]["steps"])
    results.append(("fix_after_the_crash", "kept", mig["what"]))


def change_without_a_rule_restarts():
    m = host.mark()
    apply([(STATE, "    v2         bot_dodge;", "    v2         bot_dodge;\n    v2         test_pair;")])
    r = reload_after(m)
    check(r["state"] == "migrated", f"{r}")
    results.append(("add_v2_field", "kept", ""))
    m = host.mark()
    apply([(STATE, "    v2         test_pair;", "    float      test_pair;")])
    r = reload_after(m)
    check(r["state"] == "restarted", f"v2 -> float has no automatic rule: {r}")
    refused = host.wait_ev("migrate_refused", timeout=10, since=m)
    check(refused["why"] == "GameState.test_pair changed from v2 to float, no automatic rule", f"{refused}")
    notice = [e for e in host.of("log", m) if "restarted from scratch" in e.get("msg", "")]
    check(notice and "GameState.test_pair changed from v2 to float" in notice[0]["msg"], f"{notice}")
    s = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == r["version"], 30, m, what="stats")
    check(s["game"].get("consistent", True), f"{s}")
    results.append(("struct_field_to_float", "restarted", refused["why"]))


CORPUS = [
    ("add_field_zeroed", [(STATE, "    float      rot;", "    float      rot;\n    float      wobble_zero;")],
     "Entity: added wobble_zero (0)"),
    ("add_field_with_default", [(STATE, "    float      wobble_zero;", "    float      wobble_zero;\n    float      wobble = 1.0f;")],
     "Entity: added wobble (1)"),
    ("add_gamestate_field_with_default", [(STATE, "    int32_t    runs, deaths;", "    int32_t    runs, deaths;\n    int32_t    lives_bonus = 3;")],
     "GameState: added lives_bonus (3)"),
    ("remove_field", [(STATE, "    float      wobble_zero;\n", "")], "Entity: removed wobble_zero"),
    ("reorder_fields", [(STATE, "    float    life, max_life;\n    float    size, size_end;",
                         "    float    size, size_end;\n    float    life, max_life;")], "Particle: fields reordered"),
    ("rename_with_old_name", [(STATE, "    int32_t    runs, deaths;", "    STATE_RENAMED(runs) int32_t runs_started;\n    int32_t    deaths;"),
                              (WAVES, "    sb.runs = gs->runs;", "    sb.runs = gs->runs_started;"),
                              (WAVES, "    gs->runs++;", "    gs->runs_started++;"),
                              (WAVES, "\"\\\"run\\\":%d\", gs->runs)", "\"\\\"run\\\":%d\", gs->runs_started)"),
                              (GAME, "gs->paused, gs->runs, gs->deaths", "gs->paused, gs->runs_started, gs->deaths")],
     "renamed runs -> runs_started"),
    ("widen_int", [(STATE, "    int32_t    score, best_score, multiplier, kills;",
                    "    int32_t    score, best_score, multiplier;\n    int64_t    kills;")], "kills int32 -> int64"),
    ("narrow_int", [(STATE, "    int64_t    kills;", "    int16_t    kills;")], "kills int64 -> int16"),
    ("int_to_float", [(STATE, "    int32_t    pack_left;", "    float      pack_left;")], "pack_left int32 -> float"),
    ("float_to_double", [(STATE, "    float      wave_clock;", "    double     wave_clock;")], "wave_clock float -> double"),
    ("narrow_unsigned", [(STATE, "    uint32_t   paused;", "    uint8_t    paused;")], "paused uint32 -> uint8"),
    ("grow_array_bound", [(STATE, "#define MAX_POPUPS    48", "#define MAX_POPUPS    64")], "popups 48 -> 64 elements"),
    ("shrink_array_bound", [(STATE, "#define MAX_POPUPS    64", "#define MAX_POPUPS    32")], "popups 64 -> 32 elements"),
    ("grow_max_entities", [(STATE, "#define MAX_ENTITIES  2048", "#define MAX_ENTITIES  3072")], "entities 2048 -> 3072 elements"),
    ("add_nested_struct", [(STATE, "typedef struct GameState {",
                            "typedef struct Combo { int32_t count; float timer = 2.5f; } Combo;\n\ntypedef struct GameState {"),
                           (STATE, "    int32_t    lives_bonus = 3;", "    int32_t    lives_bonus = 3;\n    Combo      combo;")],
     "added combo"),
    ("insert_enum_value_in_the_middle", [(STATE, "    ENTITY_HEART,         /* health pickup */",
                                          "    ENTITY_HEART,         /* health pickup */\n    ENTITY_ORB,"),
                                         (ENTS, "    { \"heart\",        pickup_update,  draw_mover   },",
                                          "    { \"heart\",        pickup_update,  draw_mover   },\n    { \"orb\", pickup_update, draw_mover },")],
     "gained ENTITY_ORB"),
    ("add_entity_type", [(STATE, "    ENTITY_SPAWNER,       /* a warning marker that becomes an enemy */",
                          "    ENTITY_SPAWNER,       /* a warning marker that becomes an enemy */\n    ENTITY_MINE,"),
                         (ENTS, "    { \"spawner\",      spawner_update, draw_spawner },",
                          "    { \"spawner\",      spawner_update, draw_spawner },\n    { \"mine\", no_update, draw_mover },")],
     "gained ENTITY_MINE"),
    ("reorder_gamestate_fields", [(STATE, "    float      trauma;        /* screen shake, 0..1 */\n"
                                          "    float      hitstop;       /* seconds the world stays frozen after a big hit */",
                                   "    float      hitstop;       /* seconds the world stays frozen after a big hit */\n"
                                   "    float      trauma;        /* screen shake, 0..1 */")], "GameState: fields reordered"),
    # the array cut: entities in slots past the new bound go (the run ends if the player was one of them)
    ("shrink_max_entities", [(STATE, "#define MAX_ENTITIES  3072", "#define MAX_ENTITIES  2560")], "entities 3072 -> 2560 elements"),
]

checks.case("started", started)
for name, edits, says in CORPUS:
    checks.case(name, migrated_keeps(name, edits, says))
checks.case("crash_right_after_a_migration", crash_right_after_a_migration)
checks.case("change_without_a_rule_restarts", change_without_a_rule_restarts)


def ninety_percent_keep_the_game():
    kept = [r for r in results if r[1].startswith("kept")]
    print(f"corpus: {len(results)} edits, {len(kept)} kept the game")
    for name, what, why in results:
        print(f"  {name}: {what}{': ' + str(why) if why else ''}")
    check(len(results) >= 20, f"only {len(results)} edits ran")
    check(len(kept) >= 0.9 * len(results), f"{len(kept)} of {len(results)} kept the game")


checks.case("ninety_percent_keep_the_game", ninety_percent_keep_the_game)
end_run(checks, host, root)
