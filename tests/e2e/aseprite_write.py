"""aseprite_write.py - writes Aseprite files (.aseprite) from Python, for the example's art, the tests and the bench.

Aseprite is not needed to make one: this follows its published file format (docs/ase-file-specs.md in Aseprite's
repository), the same one tinyheaders/th_aseprite.h reads. RGBA (32-bit) sprites only: a header, per frame its
duration and one cel per layer (the top layer zlib-compressed when `compress`, the others raw), the layers (name, opacity, blend mode)
in frame 0, the tags (name, first and last frame, direction, repeat count) and the slices (name, flags, keys) in frame 0.

    python3 tests/e2e/aseprite_write.py hero OUT.aseprite        the example's character (examples/sprites_aseprite)
    python3 tests/e2e/aseprite_write.py strip OUT.aseprite W H N  N frames of W x H, one colour each (the bench)
"""
import math
import struct
import sys
import zlib

FORWARD, REVERSE, PING_PONG, PING_PONG_REVERSE = 0, 1, 2, 3


def _string(s):
    b = s.encode("utf-8")
    return struct.pack("<H", len(b)) + b


def _chunk(kind, body):
    return struct.pack("<IH", 6 + len(body), kind) + body


def _layer_chunk(name, opacity=255, blend=0, visible=True):
    flags = (1 if visible else 0) | 2
    return _chunk(0x2004, struct.pack("<HHHHHHB3x", flags, 0, 0, 0, 0, blend, opacity) + _string(name))


def _cel_chunk(layer, w, h, rgba, compress):
    head = struct.pack("<HhhBHh5x", layer, 0, 0, 255, 2 if compress else 0, 0) + struct.pack("<HH", w, h)
    return _chunk(0x2005, head + (zlib.compress(rgba) if compress else rgba))


def _tags_chunk(tags):
    """tags: (name, first, last, direction[, repeat])"""
    body = struct.pack("<H8x", len(tags))
    for name, first, last, direction, *repeat in tags:
        body += struct.pack("<HHBH6x3Bx", first, last, direction, repeat[0] if repeat else 0, 255, 200, 0) + _string(name)
    return _chunk(0x2018, body)


SLICE_NINE_PATCH, SLICE_PIVOT = 1, 2


def _slice_chunk(name, flags, keys):
    """keys: (frame, x, y, w, h[, (cx, cy, cw, ch) with SLICE_NINE_PATCH][, (px, py) with SLICE_PIVOT])"""
    body = struct.pack("<III", len(keys), flags, 0) + _string(name)
    for frame, x, y, w, h, *more in keys:
        body += struct.pack("<IiiII", frame, x, y, w, h)
        if flags & SLICE_NINE_PATCH:
            body += struct.pack("<iiII", *more.pop(0))
        if flags & SLICE_PIVOT:
            body += struct.pack("<ii", *more.pop(0))
    return _chunk(0x2022, body)


def aseprite_bytes(w, h, frames, layers, tags=(), compress=True, slices=()):
    """frames: [(duration_ms, [rgba bytes (w*h*4) or None for each layer])]; layers: [(name, opacity, blend)];
    tags: [(name, first, last, direction[, repeat])]; slices: [(name, flags, keys)] (see _slice_chunk).
    Returns the file's bytes."""
    body = b""
    for i, (duration, cels) in enumerate(frames):
        chunks = []
        if i == 0:
            chunks += [_layer_chunk(name, opacity, blend) for name, opacity, blend in layers]
            if tags:
                chunks.append(_tags_chunk(list(tags)))
            chunks += [_slice_chunk(name, flags, list(keys)) for name, flags, keys in slices]
        for layer, rgba in enumerate(cels):
            if rgba is not None:
                assert len(rgba) == w * h * 4, "a cel is the sprite's size"
                chunks.append(_cel_chunk(layer, w, h, rgba, compress and layer == len(layers) - 1))
        data = b"".join(chunks)
        body += struct.pack("<IHHHxxI", 16 + len(data), 0xF1FA, min(len(chunks), 0xFFFF), duration, len(chunks)) + data
    header = struct.pack("<IHHHHHIHIIB3xHBBhhHH84x", 128 + len(body), 0xA5E0, len(frames), w, h, 32, 1, 100, 0, 0,
                         0, 0, 1, 1, 0, 0, 16, 16)
    assert len(header) == 128
    return header + body


def write(path, data):
    """Written under a temporary name and renamed into place, as an editor's save does."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    import os
    os.replace(tmp, path)


# ---------------------------------------------------------------- the example's character
HERO_SIZE = 32
HERO_COLORS = {
    "outline": (24, 20, 37), "skin": (242, 188, 140), "hair": (120, 64, 38), "shirt": (52, 120, 220),
    "pants": (48, 52, 84), "shoe": (90, 50, 30), "eye": (20, 20, 30), "shadow": (0, 0, 0),
}
IDLE = [(0, 220), (1, 160), (2, 160), (3, 300)]            # (breath, ms): ping-pong
RUN = [(i, 90 if i % 3 else 70) for i in range(6)]          # (phase, ms): forward
WAVE = [(0, 110), (1, 110), (2, 140)]                       # (arm, ms): forward, played twice (repeat 2)
WAVE_REPEAT = 2
# "hitbox": the body's bounds with its pivot at the feet (16, 30), one key per tag (idle, run, wave)
HITBOX = [(0, 10, 4, 12, 26, (6, 26)), (len(IDLE), 9, 4, 14, 26, (7, 26)),
          (len(IDLE) + len(RUN), 9, 0, 16, 30, (7, 30))]


class Canvas:
    def __init__(self, n):
        self.n = n
        self.px = bytearray(n * n * 4)

    def rect(self, x0, y0, x1, y1, rgb, a=255):
        for y in range(max(0, y0), min(self.n, y1 + 1)):
            for x in range(max(0, x0), min(self.n, x1 + 1)):
                self.px[(y * self.n + x) * 4:(y * self.n + x) * 4 + 4] = bytes((*rgb, a))

    def outline(self, rgb):
        """A one-pixel outline around everything opaque."""
        src = bytes(self.px)
        n = self.n
        for y in range(n):
            for x in range(n):
                if src[(y * n + x) * 4 + 3]:
                    continue
                near = any(0 <= x + dx < n and 0 <= y + dy < n and src[((y + dy) * n + x + dx) * 4 + 3]
                           for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
                if near:
                    self.px[(y * n + x) * 4:(y * n + x) * 4 + 4] = bytes((*rgb, 255))


def hero_body(breath=0, phase=None, colors=HERO_COLORS, wave=None):
    """One pose: breath 0..3 lifts the chest on idle; phase 0..5 swings legs and arms on run; wave 0..2 raises
    the right arm and waves its hand."""
    c = Canvas(HERO_SIZE)
    bob = (1 if breath in (1, 2) else 0) + (2 if breath == 3 else 0) // 2
    swing = 0 if phase is None else round(3 * math.sin(phase * math.pi / 3))
    lift = 0 if phase is None else (1 if phase % 3 == 0 else 0)
    top = 6 - lift
    # legs: on run each foot in turn comes up and forward while the other pushes back
    step_l = 0 if phase is None else (3 if phase in (1, 2) else 0)
    step_r = 0 if phase is None else (3 if phase in (4, 5) else 0)
    fwd = 0 if phase is None else (2 if phase in (1, 2) else -1)
    c.rect(12 + fwd, 21 - lift, 14 + fwd, 27 - step_l, colors["pants"])
    c.rect(17 - fwd, 21 - lift, 19 - fwd, 27 - step_r, colors["pants"])
    c.rect(11 + fwd, 27 - step_l, 14 + fwd, 28 - step_l, colors["shoe"])
    c.rect(17 - fwd, 27 - step_r, 20 - fwd, 28 - step_r, colors["shoe"])
    # body and arms
    c.rect(11, top + 8 - bob, 20, 21 - lift, colors["shirt"])
    c.rect(9, top + 9 - bob, 10, top + 15 - bob - swing, colors["shirt"])
    c.rect(9, top + 16 - bob - swing, 10, top + 17 - bob - swing, colors["skin"])
    if wave is None:
        c.rect(21, top + 9 - bob, 22, top + 15 - bob + swing, colors["shirt"])
        c.rect(21, top + 16 - bob + swing, 22, top + 17 - bob + swing, colors["skin"])
    else:   # the arm up beside the head, the hand to the side and back
        lean = 1 if wave == 1 else 0
        c.rect(21, top + 1, 22, top + 9, colors["shirt"])
        c.rect(21 + lean, top - 2, 22 + lean, top, colors["skin"])
    # head
    c.rect(11, top - bob, 20, top + 7 - bob, colors["skin"])
    c.rect(11, top - 1 - bob, 20, top + 1 - bob, colors["hair"])
    c.rect(11, top - bob, 12, top + 3 - bob, colors["hair"])
    eye = 0 if breath != 3 else 1   # a blink on the longest idle frame
    c.rect(17, top + 3 - bob + eye, 17, top + 4 - bob, colors["eye"])
    c.rect(14, top + 3 - bob + eye, 14, top + 4 - bob, colors["eye"])
    c.outline(colors["outline"])
    return bytes(c.px)


def hero_shadow(width=7):
    c = Canvas(HERO_SIZE)
    c.rect(16 - width, 29, 15 + width, 30, HERO_COLORS["shadow"])
    return bytes(c.px)


def hero_bytes(colors=HERO_COLORS, tags=None, compress=True, hitbox=HITBOX):
    """The character: frames 0-3 idle (ping-pong, breathing and a blink), 4-9 run (forward, faster frames), 10-12
    wave (forward, repeat 2). Two layers: a shadow at half opacity under the body. A "hitbox" slice with a pivot,
    one key per tag (hitbox: [(frame, x, y, w, h, (pivot x, y))])."""
    frames = [(ms, [hero_shadow(7), hero_body(breath=b, colors=colors)]) for b, ms in IDLE]
    frames += [(ms, [hero_shadow(6 + (p % 2)), hero_body(phase=p, colors=colors)]) for p, ms in RUN]
    frames += [(ms, [hero_shadow(7), hero_body(wave=a, colors=colors)]) for a, ms in WAVE]
    if tags is None:
        run_end = len(IDLE) + len(RUN) - 1
        tags = [("idle", 0, len(IDLE) - 1, PING_PONG), ("run", len(IDLE), run_end, FORWARD),
                ("wave", run_end + 1, run_end + len(WAVE), FORWARD, WAVE_REPEAT)]
    slices = [("hitbox", SLICE_PIVOT, [k[:5] + (k[5],) for k in hitbox])] if hitbox else []
    return aseprite_bytes(HERO_SIZE, HERO_SIZE, frames, [("shadow", 128, 0), ("body", 255, 0)], tags, compress, slices)


def strip_bytes(w, h, n, base=0, duration=100):
    """n frames of w x h, frame i one opaque colour that says i (and base); a forward tag "all"."""
    frames = []
    for i in range(n):
        rgb = ((base * 40 + i * 7) % 256, (i * 8) % 256, (255 - base * 50) % 256)
        frames.append((duration, [bytes((*rgb, 255)) * (w * h)]))
    return aseprite_bytes(w, h, frames, [("color", 255, 0)], [("all", 0, n - 1, FORWARD)])


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "hero":
        write(sys.argv[2], hero_bytes())
    elif len(sys.argv) == 6 and sys.argv[1] == "strip":
        write(sys.argv[2], strip_bytes(int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])))
    else:
        sys.exit(__doc__)
