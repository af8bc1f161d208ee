"""End to end: the Shift+F1 state inspector (docs/inspector.md), driven by scripted keys, on the sample and on an
example folder that has no code for it.

- the tree's filter finds a field and Enter edits it: a number too big for a uint32 is stored clamped, and the text
  the event reports is what the block holds;
- the entities table opens from the tree, its filter finds the drones (their kind's name), the first one's hp is
  edited (the event, then a pinned watch read from the block on a later frame, say 50), a bad value is refused with
  the reason and nothing written; the screenshot shows the table;
- the selection in a filtered table stays on its element while the fight changes which rows match;
- the table goes to its end and back up to row 2000; pinned paths are found again after a reload that changes the
  layout (MAX_ENTITIES halved): entities[0].hp still has a value, entities[2047].hp is "(gone)";
- a hot restart (a double free in the game's update: a fault inside the C library) keeps the watch list: the new
  process shows the pinned path again;
- an example's 20,000-row table (sprites_batch) opens, goes to its last row and takes an edit.
"""
import os
import shutil
import subprocess

from hostlib import (ROOT, Checks, Host, check, cleanup, edit, example_copy, inject, input_script, project_copy,
                     read_png, watchdog)

checks = Checks()
root = project_copy()


class Keys:
    """--input lines, one event every other step from `step` on."""

    def __init__(self, step=5):
        self.step, self.lines = step, []

    def at(self, text, gap=2):
        self.lines.append(f"{self.step} {text}")
        self.step += gap
        return self

    def chord(self, mod, key):
        return self.at(f"down {mod}", 1).at(f"tap {key}", 2).at(f"up {mod}")

    def open(self):
        return self.chord("LSHIFT", "F1")

    def type(self, word):
        for ch in word:
            self.at(f"tap {ch.upper()}")
        return self

    def filter(self, word, erase=0):
        """Ctrl+F, erase characters, type the word, Enter."""
        self.chord("LCTRL", "F")
        for _ in range(erase):
            self.at("tap BACKSPACE")
        return self.type(word).at("tap ENTER")

    def tabs(self, n):
        for _ in range(n):
            self.at("tap TAB")
        return self

    def enter_value(self, text):
        return self.at("tap ENTER").type(text).at("tap ENTER")

    def text(self):
        return "\n".join(self.lines) + "\n"


LIST_Y, ROW_H = 86, 16   # the table's first row, a row's height (inspector.cpp)
HP_COLUMN = 12   # Entity: type dead self.value pos.x pos.y prev_pos.x prev_pos.y vel.x vel.y radius angle prev_angle hp


def edits_filter_and_table():
    k = Keys().at("tap F10", 15).at("tap F3").open()
    k.filter("autopilot").enter_value("99999999999")            # a tree row: the field, edited clamped
    k.filter("entities", erase=9).at("tap ENTER")                # the array of structs: a table
    k.step = max(k.step, 300)                                    # the drones are in
    k.filter("drone").tabs(HP_COLUMN).enter_value("50")
    k.enter_value("ab").chord("LCTRL", "W")
    shot = os.path.join(root, "table.png")
    h = Host(root, "--fast", "--no-watch", "--input", input_script(root, k.text() + f"{k.step + 20} quit\n", "t.txt"),
             "--watchdog", watchdog(), "--screenshot", f"{k.step + 10}:{shot}")
    try:
        h.wait_ev("quit", timeout=240)
        auto = h.of("inspector_edit")[0]
        check(auto["path"] == "autopilot" and auto["stored"] == "4294967295", f"the clamped edit: {auto}")
        found = [e for e in h.of("inspector_filter") if e["filter"] == "drone"]
        check(found and found[-1]["shown"] > 0 and found[-1]["total"] == 2048, f"the drones: {found[-1:]}")
        first = found[-1]["first"]
        hp = h.of("inspector_edit")[1]
        check(hp == dict(hp, path=f"entities[{first}].hp", text="50", stored="50"), f"the hp edit: {hp}")
        bad = h.of("inspector_edit_refused")
        check(len(bad) == 1 and "not a number" in bad[0]["error"], f"the bad value: {bad}")
        watch = h.of("inspector_watch")
        check(watch and watch[0]["path"] == hp["path"] and watch[0]["value"] == "50",
              f"the pinned hp, read after the refused edit: {watch}")
        _, _, rows = read_png(shot)
        panel = sum(1 for x in range(20, 700, 7) if abs(rows[650][x][0] - 11) + abs(rows[650][x][2] - 24) < 6)
        numbered = sum(1 for i in range(found[-1]["shown"])
                       if any(sum(rows[LIST_Y + ROW_H * i + y][x][:3]) > 300 for x in range(14, 44) for y in range(3, 13)))
        check(panel > 90 and numbered >= min(found[-1]["shown"], 20),
              f"the table is not in the screenshot ({panel} samples of the panel, {numbered} numbered rows)")
    finally:
        h.stop()


ITEMS_STATE = "struct Item {\n    int32_t on = 0;\n};\n\nstruct GameState {\n    Item     items[64];\n"
ITEMS_UPDATE = ("    gs->time += dt;\n    for (int i = 0; i < 64; i++)   /* item 40 always; the first 20 from five seconds on */\n"
                "        gs->items[i].on = i == 40 || (i < 20 && gs->time > 5.0f) ? 7 : 0;\n")


def selection_stays_on_its_row():
    """A filtered table whose matches change while a row is selected: a game's items[40] is the only row the filter
    "7" keeps until, five seconds in, twenty rows before it start to match. The row selected before (items[40], the
    table's last) is still the one a pin takes after: the selection follows its element, not its place in the list."""
    game = os.path.join(root, "itemsgame")
    shutil.copytree(os.path.join(ROOT, "tools", "template"), game)
    for name, old, new in (("game.cpp", "    gs->time += dt;\n", ITEMS_UPDATE),
                           ("state.h", "struct GameState {\n", ITEMS_STATE)):
        p = os.path.join(game, name)
        with open(p) as f:
            text = f.read().replace("@NAME@", "itemsgame").replace("@FOLDER@", "itemsgame")
        check(old in text, f"the template's {name} changed: no place for the items")
        with open(p, "w") as f:
            f.write(text.replace(old, new, 1))
    r = subprocess.run(["bash", os.path.join(root, "build.sh"), "game", game], cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=900)
    check(r.returncode == 0, f"./build.sh game itemsgame failed:\n{r.stdout[-3000:]}")
    k = Keys(30).open().filter("items").at("tap ENTER")
    k.filter("7").chord("LCTRL", "DOWN")                         # the last row kept: items[40], alone so far
    check(k.step < 250, f"the selection is made after the rows before it start to match (step {k.step})")
    k.step = 420                                                 # seven seconds: items[0..19] match too
    k.chord("LCTRL", "W")
    h = Host(root, "--game", game, "--fast", "--no-watch", "--watchdog", watchdog(),
             "--input", input_script(root, k.text() + f"{k.step + 20} quit\n", "s.txt"))
    try:
        h.wait_ev("quit", timeout=240)
        counts = [e["shown"] for e in h.of("inspector_filter") if e["filter"] == "7"]
        check(counts[:1] == [1] and counts[-1] == 21, f"the rows the filter kept: {counts}")
        watch = h.of("inspector_watch")
        check(watch and watch[0]["path"] == "items[40].on", f"the pin should be the selected items[40]: {watch[:1]}")
    finally:
        h.stop()


def scrolls_and_watches_survive_a_layout_change():
    k = Keys().at("tap F10").open().filter("entities").at("tap ENTER")
    k.chord("LCTRL", "DOWN").tabs(HP_COLUMN).chord("LCTRL", "W")     # the last row's hp
    k.chord("LCTRL", "UP").chord("LCTRL", "W")                       # the first row's
    k.chord("LCTRL", "DOWN")
    for _ in range(47):
        k.at("tap UP")
    h = Host(root, "--fast", "--input", input_script(root, k.text(), "w.txt"), "--watchdog", watchdog())
    state = os.path.join(root, "game", "state.h")
    try:
        h.wait_for(lambda e: e.get("ev") == "inspector_view" and e.get("selected") == 2000, 120, 0, "row 2000")
        view = [e for e in h.of("inspector_view") if e["selected"] == 2000][-1]
        check(view["first"] <= 2000 <= view["last"] and view["shown"] == 2048, f"row 2000 on screen: {view}")
        ends = [e for e in h.of("inspector_view") if e["selected"] == 2047]
        check(ends and ends[0]["last"] == 2047, f"Ctrl+Down: the table's end: {ends[:1]}")
        h.wait_ev("inspector_watch", path="entities[0].hp", timeout=60)
        m = h.mark()
        edit(state, "#define MAX_ENTITIES  2048", "#define MAX_ENTITIES  1024")
        h.next_reload(m, timeout=300)
        gone = h.wait_ev("inspector_watch", path="entities[2047].hp", timeout=60, since=m)
        kept = h.wait_ev("inspector_watch", path="entities[0].hp", timeout=60, since=m)
        check(gone["value"] == "(gone)", f"a path the new layout lacks: {gone}")
        check(kept["value"] not in ("(gone)", ""), f"a path the new layout keeps: {kept}")
    finally:
        h.stop()


def watches_survive_a_hot_restart():
    own = project_copy()   # its library built and current: the scripted keys land on a running game
    k = Keys(60).open().filter("score").chord("LCTRL", "W")
    h = Host(own, "--input", input_script(own, k.text(), "r.txt"), "--watchdog", watchdog())
    game_cpp = os.path.join(own, "game", "game.cpp")
    try:
        h.wait_ev("inspector_watch", path="score", timeout=60)
        m = h.mark()
        inject(game_cpp, "GAME_UPDATE(game_update)",
               "{ void *volatile p = __builtin_malloc(5000); __builtin_free(p); __builtin_free(p); }")
        hr = h.wait_ev("hot_restart", timeout=120, since=m)
        check(hr["kept"] is True, f"the hot restart: {hr}")
        again = h.wait_ev("inspector_watch", path="score", timeout=60, since=m)
        check(again["value"] != "(gone)", f"the pinned path in the restarted process: {again}")
    finally:
        h.stop()
    cleanup(own)


def example_folder_table():
    game = example_copy(root, "sprites_batch")
    r = subprocess.run(["bash", os.path.join(root, "build.sh"), "game", game], cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=900)
    check(r.returncode == 0, f"./build.sh game sprites_batch failed:\n{r.stdout[-3000:]}")
    k = Keys(30).open().filter("movers").at("tap ENTER").chord("LCTRL", "DOWN").tabs(6).enter_value("7")
    h = Host(root, "--game", game, "--fast", "--no-watch", "--watchdog", watchdog(),
             "--input", input_script(root, k.text() + f"{k.step + 10} quit\n", "e.txt"))
    try:
        h.wait_ev("quit", timeout=240)
        view = h.of("inspector_view")
        check(view and view[-1]["shown"] == 20000 and view[-1]["last"] == 19999, f"the movers' table: {view[-1:]}")
        e = h.of("inspector_edit")
        check(e and e[0]["path"] == "movers[19999].layer" and e[0]["stored"] == "7", f"the edit: {e}")
    finally:
        h.stop()


checks.case("edits_filter_and_table", edits_filter_and_table)
checks.case("selection_stays_on_its_row", selection_stays_on_its_row)
checks.case("scrolls_and_watches_survive_a_layout_change", scrolls_and_watches_survive_a_layout_change)
checks.case("watches_survive_a_hot_restart", watches_survive_a_hot_restart)
checks.case("example_folder_table", example_folder_table)
if not checks.failed:
    cleanup(root)
checks.finish()
