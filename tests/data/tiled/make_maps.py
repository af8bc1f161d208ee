#!/usr/bin/env python3
"""Writes the test maps as Tiled's own .tmx/.tsx (with the tileset images they name, plain PNGs, in a
temporary folder) and has Tiled export them to JSON here: the .tmj/.tsj files beside this script are
Tiled's output, not ours. Needs Tiled (Debian: apt-get install tiled; 1.8.2 wrote the committed files).

    python3 tests/data/tiled/make_maps.py
"""
import base64, gzip, os, shutil, struct, subprocess, sys, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
H, V, D = 0x80000000, 0x40000000, 0x20000000


def png(path, w, h):
    """a grey w x h RGBA PNG: Tiled counts a tileset's tiles from its image's size"""
    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + b"\x80\x80\x80\xff" * w for _ in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def csv(v, w):
    return "\n" + ",\n".join(",".join(str(x) for x in v[i:i + w]) for i in range(0, len(v), w)) + "\n"


def le32(v):
    return b"".join(struct.pack("<I", x) for x in v)


# cave: 6x4, an embedded tileset (margin 1, spacing 2, per-tile properties, an animated tile), CSV data with flipped tiles, a group
# (offset, opacity) holding a layer and a hidden group, an object layer with every kind of object and every
# property type, an image layer, map and layer properties
GROUND = [1, 2, 3, 4, 5, 6,
          1 | H, 2 | V, 3 | D, 4 | H | V, 0, 0,
          7, 8, 9, 10, 11, 12,
          4, 4, 4, 4, 4, 4]
WALLS = [0, 0, 0, 0, 0, 0,
         4, 0, 0, 0, 0, 4,
         4, 0, 4, 4, 0, 4,
         4, 4, 4, 4, 4, 4]
CAVE = f'''<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="6" height="4" tilewidth="16" tileheight="16" infinite="0" nextlayerid="10" nextobjectid="20">
 <properties>
  <property name="title" value="Cave &quot;one&quot;"/>
  <property name="gravity" type="float" value="9.5"/>
  <property name="lives" type="int" value="3"/>
  <property name="dark" type="bool" value="true"/>
  <property name="tint" type="color" value="#ff336699"/>
  <property name="music" type="file" value="music/cave.ogg"/>
 </properties>
 <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" spacing="2" margin="1" tilecount="12" columns="4">
  <properties>
   <property name="biome" value="cave"/>
  </properties>
  <image source="tiles.png" width="72" height="54"/>
  <tile id="3" type="wall">
   <properties>
    <property name="solid" type="bool" value="true"/>
    <property name="friction" type="float" value="0.25"/>
   </properties>
  </tile>
  <tile id="9" type="spike">
   <properties>
    <property name="damage" type="int" value="5"/>
   </properties>
   <animation>
    <frame tileid="9" duration="100"/>
    <frame tileid="10" duration="150"/>
    <frame tileid="11" duration="50"/>
   </animation>
  </tile>
 </tileset>
 <layer id="1" name="ground" width="6" height="4">
  <properties>
   <property name="z" type="int" value="-1"/>
  </properties>
  <data encoding="csv">{csv(GROUND, 6)}</data>
 </layer>
 <group id="2" name="decor" offsetx="8" offsety="4" opacity="0.5">
  <layer id="3" name="walls" width="6" height="4" opacity="0.5" offsetx="2" offsety="1">
   <data encoding="csv">{csv(WALLS, 6)}</data>
  </layer>
  <group id="4" name="inner" visible="0">
   <layer id="5" name="hidden" width="6" height="4">
    <data encoding="csv">{csv([1] * 24, 6)}</data>
   </layer>
  </group>
 </group>
 <objectgroup id="6" name="things">
  <object id="1" name="spawn" type="player" x="24" y="40" width="16" height="16">
   <properties>
    <property name="label" value="Start here"/>
    <property name="hp" type="int" value="12"/>
    <property name="speed" type="float" value="1.5"/>
    <property name="friendly" type="bool" value="false"/>
    <property name="glow" type="color" value="#80ff0000"/>
    <property name="script" type="file" value="scripts/spawn.lua"/>
    <property name="target" type="object" value="7"/>
   </properties>
  </object>
  <object id="2" name="flag" x="80" y="16">
   <point/>
  </object>
  <object id="3" name="pond" x="10" y="20" width="30" height="12" rotation="45">
   <ellipse/>
  </object>
  <object id="4" name="ramp" x="0" y="64">
   <polygon points="0,0 32,0 32,-16"/>
  </object>
  <object id="5" name="rope" x="48" y="0">
   <polyline points="0,0 0,24 8,32"/>
  </object>
  <object id="6" name="sign" x="40" y="8" width="60" height="20">
   <text wrap="1">Hello cave</text>
  </object>
  <object id="7" name="chest" gid="{4 | H}" x="64" y="48" width="16" height="16"/>
  <object id="8" visible="0" x="1" y="2" width="3" height="4"/>
 </objectgroup>
 <imagelayer id="7" name="sky" offsetx="3" offsety="4">
  <image source="sky.png" width="100" height="50"/>
 </imagelayer>
</map>
'''

TERRAIN_TSX = '''<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="8" tileheight="8" tilecount="16" columns="4">
 <image source="terrain.png" width="32" height="32"/>
 <tile id="5" type="lava">
  <properties>
   <property name="hot" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
'''

# the small maps: 4x3, the same cells, one layer in each of the data formats
SMALL = [0, 1, 2, 3,
         4 | H, 5, 6 | V, 7,
         16, 15 | D, 0, 1]
EXTERNAL = '<tileset firstgid="1" source="terrain.tsj"/>'
EMBEDDED = '''<tileset firstgid="1" name="terrain" tilewidth="8" tileheight="8" tilecount="16" columns="4">
  <image source="terrain.png" width="32" height="32"/>
 </tileset>'''


def small(layer, data_attrs, body, tileset):
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="4" height="3" tilewidth="8" tileheight="8" infinite="0" nextlayerid="2" nextobjectid="1">
 {tileset}
 <layer id="1" name="{layer}" width="4" height="3">
  <data {data_attrs}>{body}</data>
 </layer>
</map>
'''


# infinite: two 16x16 chunks, one up-left of the origin, one right of it with a gap between (Tiled's default
# chunk size); the chunk at (-16,-16) has a wall along its bottom row and a flipped tile at its top-left
def chunk_cells(cx):
    cells = [0] * 256
    if cx < 0:
        cells[0] = 2 | H
        for x in range(16):
            cells[15 * 16 + x] = 4
    else:
        for y in range(16):
            cells[y * 16 + 3] = 5
    return cells


def infinite(data_attrs, encode):
    chunks = "".join(f'<chunk x="{cx}" y="{cy}" width="16" height="16">{encode(chunk_cells(cx))}</chunk>\n'
                     for cx, cy in ((-16, -16), (16, 0)))
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="30" height="20" tilewidth="8" tileheight="8" infinite="1" nextlayerid="2" nextobjectid="1">
 {EMBEDDED}
 <layer id="1" name="world" width="30" height="20">
  <data {data_attrs}>
{chunks}  </data>
 </layer>
</map>
'''


def main():
    tiled = shutil.which("tiled")
    if not tiled:
        sys.exit("make_maps.py: Tiled is not installed (apt-get install tiled)")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    with tempfile.TemporaryDirectory() as tmp:
        png(os.path.join(tmp, "tiles.png"), 72, 54)
        png(os.path.join(tmp, "terrain.png"), 32, 32)
        png(os.path.join(tmp, "sky.png"), 100, 50)
        sources = {
            "terrain.tsx": TERRAIN_TSX,
            "cave.tmx": CAVE,
            "external_base64.tmx": small("base", 'encoding="base64"', base64.b64encode(le32(SMALL)).decode(), EXTERNAL),
            "zlib.tmx": small("packed", 'encoding="base64" compression="zlib"',
                              base64.b64encode(zlib.compress(le32(SMALL))).decode(), EMBEDDED),
            "gzip.tmx": small("gz", 'encoding="base64" compression="gzip"',
                              base64.b64encode(gzip.compress(le32(SMALL))).decode(), EMBEDDED),
            "csv.tmx": small("plain", 'encoding="csv"', csv(SMALL, 4), EMBEDDED),
            "infinite.tmx": infinite('encoding="csv"', lambda v: csv(v, 16)),
            "infinite_zlib.tmx": infinite('encoding="base64" compression="zlib"',
                                          lambda v: base64.b64encode(zlib.compress(le32(v))).decode()),
        }
        for name, text in sources.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        # the tileset first: the map that uses it is loaded by Tiled with the .tsj
        runs = [("--export-tileset", "terrain.tsx", "terrain.tsj")]
        runs += [("--export-map", n, n[:-4] + ".tmj") for n in sources if n.endswith(".tmx")]
        for flag, src, dst in runs:
            subprocess.run([tiled, flag, "json", os.path.join(tmp, src), os.path.join(tmp, dst)], env=env, check=True,
                           stderr=subprocess.DEVNULL)
            shutil.copy(os.path.join(tmp, dst), os.path.join(HERE, dst))
            print("wrote", dst)


if __name__ == "__main__":
    main()
