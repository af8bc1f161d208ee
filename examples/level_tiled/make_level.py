#!/usr/bin/env python3
"""Writes level_tiled's art and level: assets/sprites/tiles.png (eight 32x32 tiles drawn here), the level as
Tiled's own XML (assets/maps/level1.tmx, the source to open in Tiled), and has Tiled export it to the JSON the
engine reads (assets/maps/level1.tmj). Needs Tiled (Debian: apt-get install tiled; 1.8.2 wrote the committed file).

    python3 examples/level_tiled/make_level.py

After that, edit level1.tmx in Tiled and save it as JSON (File > Export As, or Save As .tmj), or edit level1.tmj
itself: the running example reloads it.
"""
import os, struct, subprocess, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
T = 32                        # tile size in pixels
W, H = 60, 36                 # the level in cells: 1920 x 1152 pixels, bigger than the 1280 x 720 view

# tile ids in the tileset (the map's gids are these + 1)
FLOOR, FLOOR2, WALL, MOSS, WATER, CRATE, FLOWERS, PATH = range(8)
SOLID = {WALL, WATER, CRATE}


def png(path, w, h, pixel):
    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def noise(x, y, k):
    return ((x * 374761393 + y * 668265263 + k * 982451653) & 0xFFFFFFFF) * 1274126177 >> 28 & 15


def tile_pixel(t, x, y):
    n = noise(x, y, t)
    if t in (FLOOR, FLOOR2):
        base = (38, 44, 62) if t == FLOOR else (44, 50, 70)
        edge = x == 0 or y == 0
        return [c + n - (10 if edge else 0) for c in base] + [255]
    if t == WALL:   # bricks: rows of 8, staggered, mortar lines
        row = y // 8
        mortar = y % 8 == 7 or (x + (8 if row % 2 else 0)) % 16 == 15
        return ([70, 52, 44] if mortar else [170 + n, 86 + n, 52]) + [255]
    if t == MOSS:
        return [40 + n, 92 + 2 * n, 56] + [255]
    if t == WATER:
        wave = (x + 2 * (y // 6)) % 12 < 2 and y % 6 == 2
        return ([150, 200, 250] if wave else [30, 80 + n, 160 + n]) + [255]
    if t == CRATE:
        border = x < 3 or y < 3 or x > 28 or y > 28 or abs(x - y) < 2 or abs(x + y - 31) < 2
        return ([90, 58, 28] if border else [160 + n, 112 + n, 60]) + [255]
    if t == FLOWERS:
        petal = (x % 11 - 5) ** 2 + (y % 13 - 6) ** 2 < 6
        return ([240, 120, 170] if petal else [40 + n, 92 + 2 * n, 56]) + [255]
    return [96 + n, 92 + n, 84 + n, 255]   # PATH


def tileset_png(path):
    png(path, 4 * T, 2 * T, lambda x, y: tile_pixel((y // T) * 4 + x // T, x % T, y % T))


def level():
    """ground and walls, cell by cell (tile ids, -1 = empty)"""
    ground = [[FLOOR if (x + y) % 7 else FLOOR2 for x in range(W)] for y in range(H)]
    walls = [[-1] * W for _ in range(H)]
    for x in range(W):
        walls[0][x] = walls[H - 1][x] = WALL
    for y in range(H):
        walls[y][0] = walls[y][W - 1] = WALL
    for y in range(1, 12):           # the gate: a wall across the first corridor (the live test moves it)
        walls[y][20] = WALL
    for x in range(20, 44):          # the first room's floor: a wall along y = 12 with a door
        if not 30 <= x <= 32:
            walls[12][x] = WALL
    for y in range(18, 30):          # a wall down the middle, with a gap
        if not 23 <= y <= 25:
            walls[y][30] = WALL
    for x, y in ((8, 20), (9, 20), (8, 21), (40, 6), (41, 6), (50, 26), (51, 27)):
        walls[y][x] = CRATE
    for y in range(24, 31):          # a pond
        for x in range(8, 16):
            walls[y][x] = WATER
    for y in range(14, 18):
        for x in range(36, 56):
            ground[y][x] = PATH
    for y in range(2, 10):
        for x in range(44, 54):
            ground[y][x] = MOSS if (x * y) % 5 else FLOWERS
    return ground, walls


def csv(rows):
    return "\n" + ",\n".join(",".join(str(t + 1) for t in row) for row in rows) + "\n"


PICKUPS = [(6, 8), (14, 4), (17, 10), (26, 6), (36, 4), (48, 5), (34, 20), (22, 26), (45, 30), (54, 16), (4, 32)]


def tmx():
    ground, walls = level()
    objects = ['  <object id="1" name="spawn" type="spawn" x="{}" y="{}">\n   <point/>\n  </object>'.format(3 * T, 4 * T + 16)]
    for i, (cx, cy) in enumerate(PICKUPS):
        value = 5 if i % 4 == 3 else 1
        objects.append(f'  <object id="{i + 2}" name="coin{i}" type="pickup" x="{cx * T + 8}" y="{cy * T + 8}" '
                       f'width="16" height="16">\n   <properties>\n    <property name="value" type="int" value="{value}"/>\n'
                       f'   </properties>\n  </object>')
    tiles = "".join(f'  <tile id="{t}">\n   <properties>\n    <property name="solid" type="bool" value="true"/>\n'
                    f'   </properties>\n  </tile>\n' for t in sorted(SOLID))
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="{W}" height="{H}" tilewidth="{T}" tileheight="{T}" infinite="0" nextlayerid="4" nextobjectid="{len(PICKUPS) + 2}">
 <properties>
  <property name="title" value="The yard"/>
 </properties>
 <tileset firstgid="1" name="tiles" tilewidth="{T}" tileheight="{T}" tilecount="8" columns="4">
  <image source="../sprites/tiles.png" width="{4 * T}" height="{2 * T}"/>
{tiles} </tileset>
 <layer id="1" name="ground" width="{W}" height="{H}">
  <data encoding="csv">{csv(ground)}</data>
 </layer>
 <layer id="2" name="walls" width="{W}" height="{H}">
  <data encoding="csv">{csv(walls)}</data>
 </layer>
 <objectgroup id="3" name="objects">
{chr(10).join(objects)}
 </objectgroup>
</map>
'''


def main():
    sprites, maps = os.path.join(HERE, "assets", "sprites"), os.path.join(HERE, "assets", "maps")
    os.makedirs(sprites, exist_ok=True)
    os.makedirs(maps, exist_ok=True)
    tileset_png(os.path.join(sprites, "tiles.png"))
    src = os.path.join(maps, "level1.tmx")
    with open(src, "w") as f:
        f.write(tmx())
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run(["tiled", "--export-map", "json", src, os.path.join(maps, "level1.tmj")], env=env)
    if r.returncode:
        sys.exit("tiled --export-map failed")


if __name__ == "__main__":
    main()
