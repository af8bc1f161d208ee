"""gdb_engine.py - gdb settings and pretty-printers for the engine (docs/debugging.md).

Loaded by `./build.sh debug` (gdb -x tools/gdb_engine.py --args build/host ...), or by hand:
    (gdb) source tools/gdb_engine.py

What it does:
  - the watchdog's interrupt (SIGUSR2, platform/os/os_linux.cpp) passes to the host silently; faults (SIGSEGV,
    SIGFPE, SIGILL, SIGABRT) still stop in gdb first, and `continue` hands them to the host, which rolls back;
  - no lines for the build child the host starts on every save (vfork + exec), nor for its threads;
  - breakpoints on game functions are kept pending and land in every newly loaded library;
  - after a reload (a new build/game/loaded/libgame.<pid>.v<N>.so) gdb re-reads source files, so `list` and
    the stop location show the text that was just saved, not the text gdb first read;
  - values print readably: v2 as (x, y), thh_handle as #index/generation, Entity as its kind, place and hp;
  - `engine-entities` lists the live entities of the running game.
"""
import gdb

# ---------------------------------------------------------------- settings
for command in (
    "set pagination off",
    "set confirm off",
    "set breakpoint pending on",           # `break game_update` before the library is loaded
    "handle SIGUSR2 nostop noprint pass",  # the watchdog's interrupt: the host's own business
    "set detach-on-fork on",               # the build child is not debugged ...
    "set follow-fork-mode parent",
    "set print inferior-events off",       # ... nor announced ("Detaching after vfork from child process")
    "set print thread-events off",
):
    try:
        gdb.execute(command, to_string=True)
    except gdb.error:
        pass   # an older gdb without the setting


# ---------------------------------------------------------------- source text after a reload
def _forget_sources(event):
    """A new game library was loaded: its sources may have changed since gdb read them."""
    name = getattr(event.new_objfile, "filename", "") or ""
    if "libgame" not in name and "/game" not in name:
        return
    for command in ("maint flush source-cache", "directory"):
        try:
            gdb.execute(command, to_string=True)   # `directory` without arguments also forgets cached source info
        except gdb.error:
            pass


gdb.events.new_objfile.connect(_forget_sources)


# ---------------------------------------------------------------- pretty-printers
HANDLE_INDEX_BITS = 20   # th_handle.h: TH_HANDLE_INDEX_BITS (default)


def _enum_name(type_name, value):
    try:
        for field in gdb.lookup_type(type_name).fields():
            if field.enumval == value:
                return field.name
    except gdb.error:
        pass
    return str(value)


class V2Printer:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        return "(%g, %g)" % (float(self.val["x"]), float(self.val["y"]))


class HandlePrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        v = int(self.val["value"])
        if v == 0:
            return "handle null"
        return "handle #%d gen %d" % (v & ((1 << HANDLE_INDEX_BITS) - 1), v >> HANDLE_INDEX_BITS)


class EntityPrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        v = self.val
        kind = _enum_name("EntityType", int(v["type"])).replace("ENTITY_", "").lower()
        pos = V2Printer(v["pos"]).to_string()
        dead = " dead" if int(v["dead"]) else ""
        return "%s %s at %s hp %g%s" % (kind, HandlePrinter(v["self"]).to_string(), pos, float(v["hp"]), dead)

    def children(self):
        for field in self.val.type.strip_typedefs().fields():
            yield field.name, self.val[field.name]


def _lookup(val):
    t = val.type.strip_typedefs()
    if t.code != gdb.TYPE_CODE_STRUCT:
        return None
    return {"v2": V2Printer, "thh_handle": HandlePrinter, "Entity": EntityPrinter}.get(t.tag)(val) \
        if t.tag in ("v2", "thh_handle", "Entity") else None


gdb.pretty_printers.append(_lookup)


# ---------------------------------------------------------------- commands
class EngineEntities(gdb.Command):
    """engine-entities [N]: the first N (default 40) live entities of the game state (inside game code)."""

    def __init__(self):
        super().__init__("engine-entities", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        limit = int(arg) if arg.strip() else 40
        try:
            gs = gdb.parse_and_eval("(GameState *)mem->base")
        except gdb.error:
            raise gdb.GdbError("engine-entities: no game state here (stop inside game code, e.g. break game_update)")
        handles = gs["handles"]
        count = int(handles["head"]["count"])   # THH_FIXED_POOL: the counts in its head, the arrays beside it
        for i in range(min(count, limit)):
            print(EntityPrinter(gs["entities"][int(handles["dense_to_sparse"][i])]).to_string())
        if count > limit:
            print("... %d more" % (count - limit))


EngineEntities()
