#!/usr/bin/env python3
"""control.py - talks to a running development host through its control socket (docs/control.md). stdlib only.

  tools/control.py [--sock PATH | --game DIR] status   frame, step, paused, the game's folders
  tools/control.py get score                            a field's value (and kind)
  tools/control.py set score 500                        write it (converted and clamped as a migration does)
  tools/control.py list entities[0]                     the fields of a struct ("" or nothing: the whole state)
  tools/control.py input tap ENTER | down RIGHT | up RIGHT | mouse X Y | axis LX 0.5
  tools/control.py pause | resume | step [N] | seek STEP | screenshot [PATH]
  tools/control.py watch                                subscribe: print every event line until Ctrl-C
  tools/control.py raw '{"cmd":"status"}'               any request as it is

--sock defaults to <project>/build/game/control.sock (the sample game's build folder; another game folder's is
build/games/<name>-<hash>/control.sock, printed in the host's log at start). --game DIR: that folder's socket, as
the host names its build folder (build/host --print-game-build). Exit status 1 when the host said no.
The ControlClient class is what tests/e2e/hostlib.py uses too.
"""
import json
import os
import socket
import sys
import time

DEFAULT_SOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "game", "control.sock")


class ControlClient:
    """One connection: request() sends a line and returns the reply with its id; event lines that arrive in between
    (after subscribe) are kept in .events, in order."""

    def __init__(self, path=DEFAULT_SOCK, timeout=10.0):
        self.timeout = timeout
        self.events = []
        self._next_id = 0
        self._buf = b""
        if path.startswith("\\\\.\\pipe\\"):   # Windows: the host's named pipe
            self._pipe = open(path, "r+b", buffering=0)
            self._sock = None
        else:
            self._pipe = None
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._sock.settimeout(timeout)
            self._sock.connect(path)

    def send_raw(self, data):
        """Bytes as they are (a test's broken line, a request cut in two)."""
        if isinstance(data, str):
            data = data.encode()
        if self._sock:
            self._sock.sendall(data)
        else:
            self._pipe.write(data)

    def read_line(self, timeout=None):
        """The next line from the host as a dict; raises TimeoutError after timeout seconds."""
        deadline = time.time() + (timeout if timeout is not None else self.timeout)
        while b"\n" not in self._buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no line from the control socket")
            if self._sock:
                self._sock.settimeout(left)
                try:
                    chunk = self._sock.recv(65536)
                except socket.timeout:
                    raise TimeoutError("no line from the control socket") from None
            else:
                chunk = self._pipe.read(1)
            if not chunk:
                raise ConnectionError("the host closed the control socket")
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def reply(self, rid, timeout=None):
        """The reply carrying id rid; event lines read meanwhile go to .events."""
        while True:
            msg = self.read_line(timeout)
            if "ok" in msg and msg.get("id") == rid:
                return msg
            if "ev" in msg:
                self.events.append(msg)

    def request(self, cmd, timeout=None, **fields):
        self._next_id += 1
        req = dict(fields, cmd=cmd, id=self._next_id)
        self.send_raw(json.dumps(req) + "\n")
        return self.reply(self._next_id, timeout)

    def close(self):
        if self._sock:
            self._sock.close()
        if self._pipe:
            self._pipe.close()


def _input_request(words):
    """input tap ENTER | down A B | up A | mouse X Y | axis LX 0.5 -> the request's fields"""
    verb, rest = words[0], words[1:]
    if verb in ("down", "up", "tap"):
        return {verb: rest}
    if verb in ("mouse", "axis"):
        return {verb: [w if verb == "axis" and i == 0 else float(w) for i, w in enumerate(rest)]}
    return {"script": [" ".join(words)]}


def _request_of(words):
    cmd, rest = words[0], words[1:]
    if cmd == "raw":
        return json.loads(rest[0])
    if cmd == "get":
        return {"cmd": "get", "path": rest[0]}
    if cmd == "set":
        return {"cmd": "set", "path": rest[0], "value": rest[1]}
    if cmd == "list":
        return {"cmd": "list", "path": rest[0] if rest else ""}
    if cmd == "step":
        return {"cmd": "step", "n": int(rest[0]) if rest else 1}
    if cmd == "seek":
        return {"cmd": "seek", "step": int(rest[0])}
    if cmd == "screenshot":
        return {"cmd": "screenshot", **({"path": os.path.abspath(rest[0])} if rest else {})}
    if cmd == "input":
        return {"cmd": "input", **_input_request(rest)}
    return {"cmd": cmd}


def game_socket(folder):
    """The control socket of the host running the game in `folder`: its build folder, as the host names it."""
    import subprocess
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    host = os.path.join(root, "build", "host")
    out = subprocess.run([host, "--root", root, "--game", os.path.abspath(folder), "--print-game-build"],
                         capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip():
        raise OSError(f"{host} could not name the build folder of {folder}: {out.stderr.strip()}")
    return os.path.join(out.stdout.strip(), "control.sock")


def main(argv):
    sock = DEFAULT_SOCK
    if len(argv) >= 2 and argv[0] == "--sock":
        sock, argv = argv[1], argv[2:]
    elif len(argv) >= 2 and argv[0] == "--game":
        try:
            sock, argv = game_socket(argv[1]), argv[2:]
        except OSError as e:
            print(f"control.py: {e}", file=sys.stderr)
            return 2
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    try:
        c = ControlClient(sock)
    except OSError as e:
        print(f"control.py: cannot connect to {sock}: {e} (is the host running? --no-control?)", file=sys.stderr)
        return 2
    if argv[0] == "watch":
        r = c.request("subscribe", events=True)
        print(json.dumps(r), flush=True)
        try:
            while True:
                try:
                    print(json.dumps(c.read_line(timeout=3600)), flush=True)
                except TimeoutError:
                    continue
        except (KeyboardInterrupt, ConnectionError):
            return 0
    req = _request_of(argv)
    cmd = req.pop("cmd")
    req.pop("id", None)
    r = c.request(cmd, timeout=60, **req)
    print(json.dumps(r))
    return 0 if r.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
