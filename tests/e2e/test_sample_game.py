"""End to end: NEON SWARM, the sample game, played headless.

- the autopilot plays 80 s of game time: no crash, it reaches wave 3, a death starts a new run, and
  its runs are demos: their scores never become the best, nothing is saved as a best;
- the best score is save data earned by a person: a new session starts with it, a corrupt save file is
  named on screen and in the log, set aside, and the game starts from 0;
- Esc opens the pause menu (the world stops), and its Quit goes back to the title;
- entity handles stay valid across a reload in the middle of play;
- a recording replayed on the same code ends in the same state;
- screenshots of the title, play and game-over screens have real content (UPDATE_SCREENSHOTS=1
  copies them to docs/ for the README).
- wave 1 is fair: a scripted player who moves and fires all round (no autopilot, blind to the screen)
  clears it alive, and one who does nothing lives at least 15 s and dies early on.
"""
import os
import shutil

from hostlib import ROOT, Checks, Host, check, cleanup, edit, input_script, project_copy, read_png

checks = Checks()
root = project_copy()


def run(*args, timeout=600):
    h = Host(root, "--fast", "--no-watch", *args)
    rc = h.proc.wait(timeout)
    h.stop()
    check(rc == 0, f"host exit {rc}\n{h.tail()}")
    check(not h.of("crash"), f"crashes: {h.of('crash')}")
    return h


def games(h, name):
    return [e for e in h.of("game") if e.get("name") == name]


def bot_plays_80_seconds():
    # (how far the autopilot gets on ten seeds is tests/unit/test_game_bots.cpp: no rendering, much faster)
    h = run("--frames", str(80 * 60), "--input", input_script(root, "5 tap F10\n", "bot.txt"))
    waves = [e["wave"] for e in games(h, "wave_start")]
    deaths = games(h, "player_died")
    runs = games(h, "run_start")
    check(waves and max(waves) >= 3, f"reached wave {max(waves) if waves else 0}, want 3")
    check(len(runs) >= len(deaths), f"{len(runs)} runs for {len(deaths)} deaths: it did not restart after dying")
    quit_ev = h.of("quit")[0]
    check(quit_ev["step"] == 80 * 60, f"ran {quit_ev['step']} steps")
    for d in deaths:
        check(d["demo"] is True and d["new_best"] is False, f"an autopilot run is not a demo: {d}")
    check(quit_ev["game"]["demo"] == 1, f"the running autopilot run is not a demo: {quit_ev['game']}")
    check(quit_ev["game"]["best"] == 0, f"the autopilot set a best: {quit_ev['game']['best']}")
    check(not [e for e in h.of("save") if e["name"] == "best"], "an autopilot run was saved as a best")
    print(f"  bot: waves {waves}, deaths {[(d['score'], d['wave']) for d in deaths]}, score {quit_ev['game']['score']}")




def human_then_quit():
    """The human-like script below for 16 s (it moves and fires all round, so it scores), every key let go,
    then the pause menu's Quit."""
    lines = [l for l in human_like_script(1000).splitlines() if int(l.split()[0]) < 990]
    held = sorted({l.split()[2] for l in lines if l.split()[1] == "down"})
    lines += [f"995 up {k}" for k in held] + ["1010 tap ESCAPE", "1020 tap DOWN", "1030 tap DOWN", "1040 tap ENTER"]
    return "".join(l + "\n" for l in lines)


def best_score_persists_and_survives_corruption():
    # a person's run, then the pause menu's Quit: its score is saved as the best
    h = run("--frames", "1100", "--input", input_script(root, human_then_quit(), "human_quits.txt"))
    best = h.of("quit")[0]["game"]["best"]
    check(best > 0 and h.of("quit")[0]["game"]["demo"] == 0, f"the person's run scored no best: {h.of('quit')[0]['game']}")
    check(games(h, "quit_to_title") and h.of("quit")[0]["game"]["mode"] == 0, "Quit in the pause menu did not go back to the title")
    h = run("--frames", "30")
    check(h.of("quit")[0]["game"]["best"] == best, f"a new session starts with best {h.of('quit')[0]['game']['best']}, want {best}")
    check(h.of("load") and h.of("load")[0]["bytes"] > 0, f"no load event: {h.of('load')}")
    # F3 (the stress swarm) makes a run a demo: it can only lose its best-ness
    h = run("--frames", "200", "--input", input_script(root, "60 tap ENTER\n100 tap F3\n", "f3.txt"))
    check(games(h, "demo_run") and h.of("quit")[0]["game"]["demo"] == 1, f"F3 did not mark the run a demo: {h.of('quit')[0]['game']}")
    path = os.path.join(root, "save", "best.sav")
    data = bytearray(open(path, "rb").read())
    data[-3] ^= 0x5A   # one damaged byte in the payload
    open(path, "wb").write(data)
    h = run("--frames", "60", "--input", input_script(root, "10 tap ENTER\n", "start.txt"))
    bad = h.of("save_corrupt")
    check(bad and bad[0]["path"].endswith("best.sav") and "checksum" in bad[0]["reason"], f"corrupt save not reported: {bad}")
    check(any("best.sav" in n["text"] for n in h.of("notice")), f"no on-screen notice naming the file: {h.of('notice')}")
    check(h.of("quit")[0]["game"]["best"] == 0, f"best after a corrupt save: {h.of('quit')[0]['game']}")
    check(h.of("quit")[0]["game"]["mode"] == 1, "the game did not keep running after the corrupt save")
    check(os.path.exists(path + ".corrupt") and not os.path.exists(path), "the corrupt file was not set aside")
    # and the next save writes a good file again, atomically (no temporary left behind)
    h = run("--frames", "1100", "--input", input_script(root, human_then_quit(), "human_quits.txt"))
    check(os.path.exists(path), "no new save after the corrupt one")
    check(not [f for f in os.listdir(os.path.dirname(path)) if ".tmp." in f], "a temporary save file was left")
    rewritten = h.of("quit")[0]["game"]["best"]
    h = run("--frames", "20")
    check(rewritten > 0 and h.of("quit")[0]["game"]["best"] == rewritten, f"the rewritten save ({rewritten}) does not load")


def human_like_script(steps):
    """A player without the autopilot who does not watch the screen: Enter, then a slow square
    (D, S, A, W for 1.5 s each) while the aim sweeps through the eight directions every 1/3 s, and a
    dash every 2.8 s. Drones come from every side, so only moving and firing all round keeps them off."""
    lines = ["60 tap ENTER"]
    aims = [["RIGHT"], ["RIGHT", "DOWN"], ["DOWN"], ["DOWN", "LEFT"], ["LEFT"], ["LEFT", "UP"], ["UP"], ["UP", "RIGHT"]]
    for i, t in enumerate(range(70, steps, 90)):
        key = "DSAW"[i % 4]
        lines += [f"{t} down {key}", f"{t + 90} up {key}"]
    for j, t in enumerate(range(70, steps, 20)):
        lines += [f"{t} down {k}" for k in aims[j % 8]] + [f"{t + 20} up {k}" for k in aims[j % 8]]
    lines += [f"{t} tap SPACE" for t in range(170, steps, 170)]
    return "".join(line + "\n" for line in sorted(lines, key=lambda line: int(line.split()[0])))


def wave_one_is_fair():
    """Wave 1 must not kill a player who moves and shoots (it clears the wave), and must kill one who does neither."""
    steps = 45 * 60
    h = run("--frames", str(steps), "--input", input_script(root, human_like_script(steps), "human.txt"))
    died = games(h, "player_died")
    cleared = [e for e in games(h, "wave_cleared") if e["wave"] == 1]
    check(cleared, f"a moving, shooting player did not clear wave 1 in 45 s (died: {died})")
    check(not died or died[0]["frame"] > cleared[0]["frame"], f"a moving, shooting player died in wave 1: {died[:1]}")
    h = run("--frames", "4000", "--input", input_script(root, "60 tap ENTER\n", "idle.txt"))
    died = games(h, "player_died")
    check(died and died[0]["wave"] <= 2, f"a player who does nothing survives the first minute: {died}")
    check(died and died[0]["frame"] - 60 >= 15 * 60, f"a player who does nothing dies within 15 s: {died[:1]}")
    print(f"  wave 1: cleared by the human-like script at {cleared[0]['frame'] / 60:.1f} s, an idle player dies at "
          f"{died[0]['frame'] / 60:.1f} s")




def handles_survive_reload_mid_play():
    h = Host(root, "--input", input_script(root, "5 tap F10\n", "bot2.txt"))
    try:
        h.wait_ev("new_code_running", version=1, timeout=30)
        mid = h.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("mode") == 1
                         and e["game"].get("enemies", 0) > 0, 60, what="play with enemies")
        m = h.mark()
        edit(os.path.join(root, "game", "enemies.cpp"), "e->angle += 4.0f * dt;", "e->angle += 5.0f * dt;")
        r = h.wait_ev("reload", version=2, timeout=60, since=m)
        check(r["state"] == "kept", f"{r}")
        after = h.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == 2, 20, m, what="v2 stats")
        g0, g1 = mid["game"], after["game"]
        check(g1["player_handle"] == g0["player_handle"] and g1["player_handle"] != 0, f"player handle {g0} -> {g1}")
        check(g1["runs"] == g0["runs"] and g1["steps"] > g0["steps"], f"the run restarted: {g0} -> {g1}")
        check(not h.of("crash"), "crash after reload")
    finally:
        h.stop()
        edit(os.path.join(root, "game", "enemies.cpp"), "e->angle += 5.0f * dt;", "e->angle += 4.0f * dt;")


def replay_same_state():
    rec = os.path.join(root, "game.rec")
    a = run("--frames", "900", "--input", input_script(root, "5 tap F10\n", "bot3.txt"), "--record", rec)
    b = run("--frames", "920", "--replay", rec)
    end = b.of("replay_end")
    check(end and end[0]["state_hash"] == a.of("quit")[0]["state_hash"], f"replay {end} vs {a.of('quit')}")


def distinct_colors(path):
    w, h, rows = read_png(path)
    return len({rows[y][x] for y in range(0, h, 4) for x in range(0, w, 4)})


def region(rows, x0, y0, x1, y1, step=2):
    return [rows[y][x] for y in range(y0, y1, step) for x in range(x0, x1, step)]


def near(px, rgb, tol=60):
    return all(abs(px[i] - rgb[i]) <= tol for i in range(3))


def share(pixels, pred):
    return sum(1 for p in pixels if pred(p)) / max(1, len(pixels))


def lum(p):
    return (p[0] * 3 + p[1] * 6 + p[2]) / 10


CYAN, RED = (0x4F, 0xE3, 0xFF), (0xFF, 0x5C, 0x7A)


def screenshots():
    frames = (40, 400, 700, 1000, 1300, 1600, 1900, 2200, 2500, 2800, 3000, 3100, 3200)
    shots = {f: os.path.join(root, f"shot_{f}.png") for f in frames}
    args = []
    for f, p in shots.items():
        args += ["--screenshot", f"{f}:{p}"]
    # ENTER then hands off the controls, holding fire: the player stands and fights until it dies;
    # then Enter plays again, and Esc opens the pause menu over the new run
    inp = "60 tap ENTER\n90 down RIGHT\n3010 up RIGHT\n3020 tap ENTER\n3150 tap ESCAPE\n3230 tap DOWN\n3240 tap DOWN\n3250 tap ENTER\n"
    h = Host(root, "--fast", "--no-watch", "--frames", "4000", "--input", input_script(root, inp, "idle.txt"), *args)
    rc = h.proc.wait(600)
    h.stop()
    check(rc == 0 and not h.of("crash"), f"host exit {rc}\n{h.tail()}")
    died = games(h, "player_died")
    check(died, "the idle player never died")
    death_frame = died[0]["frame"]
    over = [f for f in sorted(shots) if death_frame + 150 <= f <= 3000]
    play = [f for f in sorted(shots) if 300 <= f < death_frame]
    check(over and play, f"no screenshot after the death at frame {death_frame} or before it")
    # the pause menu's Quit went back to the title (Esc there quits)
    quit_ev = h.of("quit")[0]
    check(games(h, "quit_to_title") and quit_ev["game"]["mode"] == 0, f"Quit in the pause menu did not go back to the title: {quit_ev}")
    check([e for e in games(h, "pause") if e.get("on") is True], "Esc did not open the pause menu")
    picked = {"title": shots[40], "play": shots[play[-1]], "gameover": shots[over[0]], "pause": shots[3200]}
    decoded = {}
    for name, p in picked.items():
        n = distinct_colors(p)
        check(n > 40, f"{name} screenshot has only {n} colours")
        w, hh, rows = read_png(p)
        decoded[name] = (w, hh, rows)
    w, hh, rows = decoded["title"]
    check(share(region(rows, w // 4, hh // 5, 3 * w // 4, hh // 3), lambda p: near(p, CYAN)) > 0.03, "title: no NEON SWARM lettering")
    w, hh, rows = decoded["play"]
    panel = region(rows, 14 * w // 1280, 12 * hh // 720, 250 * w // 1280, 120 * hh // 720)
    check(share(panel, lambda p: lum(p) < 40) > 0.6, "play: the score has no dark backing")
    check(share(panel, lambda p: lum(p) > 200) > 0.004, "play: no score text on the backing")
    w, hh, rows = decoded["gameover"]
    check(share(region(rows, w // 4, 190 * hh // 720, 3 * w // 4, 290 * hh // 720), lambda p: near(p, RED)) > 0.03,
          "game over: no GAME OVER lettering")
    w, hh, rows = decoded["pause"]
    blue = lambda y0, y1: sum(p[2] for p in region(rows, w // 3, y0 * hh // 720, 2 * w // 3, y1 * hh // 720)) / 1.0
    check(blue(330, 378) > 2 * blue(450, 498), "pause: the selected menu item (RESUME) is not highlighted")
    check(open(picked["title"], "rb").read() != open(picked["gameover"], "rb").read(), "title and game over are equal")
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
        for name, p in picked.items():
            shutil.copy2(p, os.path.join(ROOT, "docs", f"{name}.png"))


checks.case("bot_plays_80_seconds", bot_plays_80_seconds)
checks.case("best_score_persists_and_survives_corruption", best_score_persists_and_survives_corruption)
checks.case("handles_survive_reload_mid_play", handles_survive_reload_mid_play)
checks.case("replay_same_state", replay_same_state)
checks.case("screenshots", screenshots)
checks.case("wave_one_is_fair", wave_one_is_fair)
if not checks.failed:
    cleanup(root)
checks.finish()
