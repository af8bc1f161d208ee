"""test_control.py - the control socket (docs/control.md, platform/devtools/control.cpp): the headless sample driven
through <game build folder>/control.sock by tools/control.py's client. Fields read and written by path (clamped,
the game going on from what was written), bad requests answered with an error and the state unchanged, input that
moves the player, pause and exactly n steps, a seek on the timeline, a screenshot, a subscription to the event
lines, two clients at once, the socket's mode, a stale socket file replaced, and --no-control."""
import os
import socket
import stat
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from hostlib import Checks, ControlClient, Host, check, cleanup, project_copy, stretch  # noqa: E402

INDEX_BITS = 20   # th_handle.h's TH_HANDLE_INDEX_BITS: a handle's slot index is its low bits


def value(c, path):
    r = c.request("get", path=path)
    check(r["ok"], f"get {path}: {r}")
    return r["value"]


def wait_until(c, path, pred, what):
    """Polls a field until pred holds for its value (bounded by the machine's load), returns the value."""
    deadline = time.time() + stretch(30.0)
    while time.time() < deadline:
        v = value(c, path)
        if pred(v):
            return v
        time.sleep(0.02)
    raise AssertionError(f"{path} never became {what} (last: {v})")


def main():
    checks = Checks()
    root = project_copy()
    host = Host(root, "--no-watch")
    sock = os.path.join(root, "build", "game", "control.sock")
    try:
        c = host.control()

        def socket_and_status():
            ev = host.wait_ev("control")
            check(os.path.realpath(ev["path"]) == os.path.realpath(sock), f"the socket is not {sock}: {ev}")
            mode = stat.S_IMODE(os.stat(sock).st_mode)
            check(stat.S_ISSOCK(os.stat(sock).st_mode) and mode == 0o600, f"the socket's mode is {oct(mode)}")
            r = c.request("status")
            check(r["ok"] and r["loaded"] and r["version"] >= 1, f"status: {r}")
            check(os.path.realpath(r["game_build_folder"]) == os.path.realpath(os.path.join(root, "build", "game")), r)
        checks.case("the socket at <game build folder>/control.sock, mode 0600; status", socket_and_status)

        def get_and_set():
            before = int(value(c, "steps"))
            r = c.request("set", path="steps", value=1000000)
            check(r["ok"] and r["value"] == "1000000" and r["kind"] == "uint64", f"set steps: {r}")
            after = int(wait_until(c, "steps", lambda v: int(v) > 1000000, "> 1000000 (the game stepping on)"))
            check(before < 1000000 < after, f"steps {before} -> {after}")
            r = c.request("set", path="kills", value="99999999999")   # an int32: clamped
            check(r["ok"] and r["value"] == "2147483647", f"a clamped set: {r}")
            r = c.request("set", path="wave_phase", value=1)          # an enum: by number, read back by name
            check(r["ok"] and r["kind"] == "enum" and not r["value"].isdigit(), f"an enum set: {r}")
            r = c.request("list", path="")
            names = [f["name"] for f in r.get("fields", [])]
            check(r["ok"] and r["type"] == "GameState" and "entities" in names and "score" in names and r["more"] == 0,
                  f"list: {r}")
        checks.case("get and set a field; the game goes on from it; clamped; list", get_and_set)

        def bad_requests():
            check(c.request("pause")["ok"], "pause")
            score, steps, status = value(c, "score"), value(c, "steps"), c.request("status")
            c.send_raw("this is not json\n")
            r = c.read_line()
            check(not r["ok"] and "not a request" in r["error"], f"bad JSON: {r}")
            c.send_raw('{"id":7,"cmd":"get","path":"score"\n')   # not closed
            r = c.read_line()
            check(not r["ok"] and "error" in r, f"an unclosed object: {r}")
            bad = [("nope", {}), ("get", {"path": "enemis"}), ("get", {"path": "entities[99999].pos.x"}),
                   ("get", {}), ("set", {"path": "score", "value": "abc"}), ("set", {"path": "score"}),
                   ("set", {"path": "entities", "value": 1}), ("get", {"path": "entities[0]"}),
                   ("step", {"n": 0}), ("step", {"n": "x"}), ("input", {"tap": ["NOKEY"]}), ("input", {}),
                   ("input", {"tap": ["ENTER\n0 quit"]}), ("input", {"mouse": [1]}), ("input", {"script": ["9 bogus"]}),
                   ("subscribe", {}), ("seek", {})]
            for cmd, fields in bad:
                r = c.request(cmd, **fields)
                check(r["ok"] is False and r["error"] and r["id"] == c._next_id, f"{cmd} {fields} was taken: {r}")
            check(value(c, "score") == score and value(c, "steps") == steps, "a bad request changed the state")
            now = c.request("status")
            check(now["step"] == status["step"] and now["paused"], f"a bad request moved the game: {status} {now}")
        checks.case("bad requests: an error each, the state unchanged", bad_requests)

        def pause_and_step():
            s0 = c.request("status")["step"]
            r = c.request("step", n=7)
            check(r["ok"] and r["step"] == s0 + 7, f"step 7 from {s0}: {r}")
            r = c.request("status")
            check(r["paused"] and r["step"] == s0 + 7, f"still paused at {s0 + 7}: {r}")
            check(not c.request("resume")["paused"], "resume")
            r = c.request("step", n=1)
            check(not r["ok"] and "not paused" in r["error"], f"a step while running: {r}")
        checks.case("pause, then exactly n steps", pause_and_step)

        def input_moves_player():
            if value(c, "mode") != "MODE_PLAY":
                check(c.request("input", tap=["ENTER"])["ok"], "tap ENTER")
                wait_until(c, "mode", lambda v: v == "MODE_PLAY", "MODE_PLAY")
            i = int(value(c, "player.value")) & ((1 << INDEX_BITS) - 1)
            x0 = float(value(c, f"entities[{i}].pos.x"))
            check(c.request("input", down=["D"])["ok"], "down D")
            x1 = float(wait_until(c, f"entities[{i}].pos.x", lambda v: float(v) > x0 + 40, f"> {x0 + 40}"))
            check(c.request("input", up=["D"])["ok"], "up D")
            check(x1 > x0, f"the player did not move right: {x0} -> {x1}")
        checks.case("input injection moves the player", input_moves_player)

        def subscribe_sees_game_event():
            w = ControlClient(sock, timeout=stretch(20.0))
            check(w.request("subscribe", events=True)["ok"], "subscribe")
            check(c.request("input", tap=["ESCAPE"])["ok"], "tap ESCAPE")   # the game's pause menu: its "pause" event
            while not any(e.get("ev") == "game" and e.get("name") == "pause" for e in w.events):
                w.events.append(w.read_line())
            check(c.request("input", tap=["ESCAPE"])["ok"], "tap ESCAPE again")
            w.close()
        checks.case("subscribe: the game's event lines arrive", subscribe_sees_game_event)

        def seek_on_timeline():
            deadline = time.time() + stretch(30.0)   # the set above started the timeline again: 60 steps on it
            while (lambda st: st["head"] - st["oldest"])(c.request("status")) < 60:
                check(time.time() < deadline, "the timeline never held 60 steps")
                time.sleep(0.05)
            head = c.request("status")["head"]
            r = c.request("seek", step=head - 30)
            check(r["ok"] and r["paused"] and r["timeline"] and r["cursor"] == head - 30, f"seek to {head - 30}: {r}")
            check(c.request("status")["step"] == head - 30, "the step is the seek's")
            for to in (head - 50, head - 10):   # again, already on the timeline: back, then forward
                r = c.request("seek", step=to)
                check(r["ok"] and r["timeline"] and r["cursor"] == to, f"a second seek, to {to}: {r}")
            r = c.request("resume")
            check(r["ok"] and not r["paused"] and not r["timeline"], f"resume from the timeline: {r}")
        checks.case("seek on the timeline", seek_on_timeline)

        def screenshot():
            to = os.path.join(root, "shot from control.png")
            r = c.request("screenshot", path=to)
            check(r["ok"] and r["path"] == to, f"screenshot: {r}")
            with open(to, "rb") as f:
                check(f.read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG")
        checks.case("screenshot: the PNG written where asked", screenshot)

        def two_clients_and_a_broken_one():
            b = ControlClient(sock, timeout=stretch(20.0))
            gone = ControlClient(sock, timeout=stretch(20.0))
            gone.send_raw('{"cmd":"sta')   # disconnects mid-line: dropped quietly
            gone.close()
            b.send_raw('{"id":"b1","cmd":"status"}\n')
            c.send_raw('{"id":"c1","cmd":"get","path":"score"}\n')
            rb, rc = b.read_line(), c.read_line()
            check(rb["id"] == "b1" and rb["ok"] and rc["id"] == "c1" and rc["ok"], f"{rb} {rc}")
            b.send_raw("x" * 20000 + "\n")   # longer than a request may be: refused, the client kept
            r = b.read_line()
            check(not r["ok"] and "longer" in r["error"], f"a long line: {r}")
            check(b.request("status")["ok"] and host.alive(), "the client after a long line")
            b.close()
        checks.case("two clients at once; one gone mid-line; a long line", two_clients_and_a_broken_one)
        c.close()
        host.stop()
        checks.case("the socket file removed at exit", lambda: check(not os.path.exists(sock), "still there"))

        def stale_socket_replaced():
            s = socket.socket(socket.AF_UNIX)
            s.bind(sock)   # a socket file nobody listens on: what a killed host leaves
            s.close()
            h = Host(root, "--no-watch")
            try:
                cc = h.control()
                check(cc.request("status")["ok"], "status through the replaced socket")
                cc.close()
            finally:
                h.stop()
        checks.case("a stale socket file replaced", stale_socket_replaced)

        def no_control():
            h = Host(root, "--no-watch", "--no-control", "--frames", "30")
            h.wait_ev("quit", 60)
            h.stop()
            check(not h.of("control") and not os.path.exists(sock), "--no-control still listened")
        checks.case("--no-control: no socket", no_control)
    finally:
        host.stop()
        cleanup(root)
    checks.finish()


if __name__ == "__main__":
    main()
