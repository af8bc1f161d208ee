"""Scripted mouse and keys for the F4 tweak panel (platform/devtools/tweak_panel.cpp), as --input lines.

The panel's layout is fixed (docs/tweak_panel.md): with a filter that leaves one site, its file's name is
the first row and the site the second, so the value box of that site is at a known place."""

PANEL_X, PANEL_W = 740, 530
FILTER = (760, 37)
LIST_Y, ROW_H = 74, 18
VALUE_X = PANEL_X + PANEL_W - 156
SITE_Y = LIST_Y + ROW_H             # the one site left by a filter
VALUE = (VALUE_X + 36, SITE_Y + 9)  # inside its value box (the first number of a pair)
PICKER_Y = SITE_Y + ROW_H + 4       # a colour's picker under it: the square, hue and alpha bars
ALPHA_X = PANEL_X + 20 + 134 + 8


class Script:
    """Lines of an --input script, one event per step from `start` on."""

    def __init__(self, start=5):
        self.step = start
        self.lines = []

    def at(self, text, gap=2):
        self.lines.append(f"{self.step} {text}")
        self.step += gap
        return self

    def wait(self, steps):
        self.step += steps
        return self

    def open_panel(self):
        return self.at("tap F4")

    def filter(self, word):
        """Click the filter box, type the word (letters and digits), Enter."""
        self.at(f"mouse {FILTER[0]} {FILTER[1]}", 1).at("down MOUSE_LEFT", 1).at("up MOUSE_LEFT")
        for ch in word:
            self.at(f"tap {ch.upper()}")
        return self.at("tap ENTER")

    def drag(self, x0, y0, x1, y1, moves=4):
        """Press at (x0, y0), move in steps to (x1, y1), release."""
        self.at(f"mouse {x0} {y0}", 1).at("down MOUSE_LEFT", 1)
        for i in range(1, moves + 1):
            self.at(f"mouse {x0 + (x1 - x0) * i / moves:.1f} {y0 + (y1 - y0) * i / moves:.1f}", 1)
        return self.at("up MOUSE_LEFT")

    def click(self, x, y):
        return self.at(f"mouse {x} {y}", 1).at("down MOUSE_LEFT", 1).at("up MOUSE_LEFT")

    def ctrl(self, key):
        return self.at("down LCTRL", 1).at(f"tap {key}", 2).at("up LCTRL")

    def text(self):
        return "\n".join(self.lines) + "\n"
