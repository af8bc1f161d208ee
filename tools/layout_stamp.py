#!/usr/bin/env python3
"""layout_stamp.py - the game's layout stamp: a hash of exactly the types that live in the memory block.

    layout_stamp.py CXX STATE_HEADER [compiler flags...]    prints the stamp (a decimal u32)

and writes the description of the state's types beside the build's other outputs
(<project>/build/game/state_types.inc, or --types=PATH given before CXX): see write_types below.
--header=PATH also writes the stamp as a header, `#define GAME_LAYOUT_HASH <stamp>u` (the Windows game
library's CMake build force-includes it), rewritten only when the stamp changes.

It preprocesses the state header (which includes what it needs), splits the result into top-level
declarations, and starts from every type, enum and constant the state header itself declares. From
there it follows each name those declarations mention to the declaration that defines it (a v2 in
Entity pulls in th_math.h's v2; uint32_t pulls in its typedef), and hashes the tokens of everything
reached. Function bodies and prototypes are not layout: editing an inline helper in a tinyheader
keeps the stamp, editing a struct the state embeds changes it. Macros are already expanded into the
declarations (an array size is part of its field), comments and spacing are gone with tokenizing.

build.sh runs this only when the state header or a tinyheader changed (it caches the stamp by their
content). Any failure - the preprocessor's, or a state header without types - prints the reason and
exits 1, so the build fails loudly instead of stamping every library alike.
"""
import hashlib
import os
import re
import subprocess
import sys

TOKEN = re.compile(r'[A-Za-z_]\w*|\d[\w.]*(?:[eEpP][+-]\w+)?|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|\.\.\.|->|::|<<|>>|\S')
IDENT = re.compile(r'[A-Za-z_]\w*$')
LINE_MARK = re.compile(r'#\s*(?:line\s+)?\d+\s+"((?:\\.|[^"\\])*)"')
KEYWORDS = {"struct", "union", "enum", "typedef", "const", "volatile", "static", "extern", "inline", "unsigned",
            "signed", "int", "char", "short", "long", "float", "double", "void", "_Bool", "bool", "__extension__",
            "__attribute__", "__restrict", "restrict", "sizeof", "alignas", "_Alignas", "__inline", "constexpr"}


def fail(msg):
    sys.stderr.write(f"layout stamp: {msg}\n")
    sys.exit(1)


def tokens_with_files(text):
    """(token, file it came from) pairs of preprocessed text."""
    current = ""
    for line in text.splitlines():
        s = line.lstrip()
        if s.startswith("#"):
            m = LINE_MARK.match(s)
            if m:
                current = m.group(1)
            continue  # linemarkers and #pragma lines are not declarations
        for t in TOKEN.findall(line):
            yield t, current


def declarations(toks):
    """Top-level declarations as (tokens, file, is_function); `extern "C" {` blocks are transparent."""
    out, cur, cur_file, depth, linkage = [], [], "", 0, 0
    skipping_body = False
    for t, f in toks:
        if not cur and depth == 0:
            cur_file = f
        if depth == 0 and t == "{" and cur[-2:] == ["extern", '"C"']:
            cur, linkage = [], linkage + 1
            continue
        if depth == 0 and t == "}" and linkage and not cur:
            linkage -= 1
            continue
        if t in "{([":
            if depth == 0 and t == "{" and cur and cur[-1] == ")":
                skipping_body = True  # a function definition: its body is not layout
            depth += 1
        elif t in "})]":
            depth -= 1
            if depth < 0:
                fail("unbalanced braces in the preprocessed state header")
        if not skipping_body:
            cur.append(t)
        if depth == 0 and skipping_body and t == "}":
            out.append((cur, cur_file, True))
            cur, skipping_body = [], False
        elif depth == 0 and t == ";":
            out.append((cur, cur_file, False))
            cur = []
    if depth != 0 or cur:
        fail("the preprocessed state header ends inside a declaration")
    return out


def names_defined(decl):
    """Tags, declarator names at the top level, and enumerators."""
    names, depth, in_enum = set(), 0, False
    for i, t in enumerate(decl):
        nxt = decl[i + 1] if i + 1 < len(decl) else ""
        prev = decl[i - 1] if i else ""
        if t in "{([":
            depth += 1
            continue
        if t in "})]":
            depth -= 1
            continue
        if not IDENT.match(t) or t in KEYWORDS:
            continue
        if prev in ("struct", "union", "enum") and depth == 0:
            names.add(t)
            if prev == "enum":
                in_enum = True
        elif depth == 0 and nxt in (";", ",", "[", "=", ")"):
            names.add(t)
        elif depth == 1 and in_enum and prev in ("{", ",") and nxt in (",", "=", "}"):
            names.add(t)
    return names


def is_layout(decl, is_function):
    """Types, typedefs and constants; not functions, prototypes or function-typed variables."""
    if is_function:
        return False
    if "typedef" in decl:
        return True
    depth = 0
    for t in decl:
        if t in "{[":
            depth += 1
        elif t in "}]":
            depth -= 1
        elif t == "(" and depth == 0 and "__attribute__" not in decl:
            return False
    return True


# ---------------------------------------------------------------- the description of the types
# The state's structs and enums, as a C++ include the game library compiles (game/game.cpp): this script
# writes only names - struct, field, enum and value names, and which struct or enum a name means - and
# the compiler fills in everything else (sizeof, alignof, offsetof, each field's kind from decltype, element
# counts, the enumerators' values), in th_reflect.h's table format. Starting at the root struct it follows
# the fields' types, so only what the state holds is described. The markers game_api.h defines for this
# pass (STATE_TRANSIENT, STATE_RENAMED(old), STATE_COUNT_OF(array)) become field flags.
MARKERS = {"__state_transient": 0, "__state_renamed": 1, "__state_count_of": 1}


def split_top(toks, sep):
    """Pieces of toks split at sep outside brackets."""
    out, cur, depth = [], [], 0
    for t in toks:
        if t in "{([":
            depth += 1
        elif t in "})]":
            depth -= 1
        if t == sep and depth == 0:
            out.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        out.append(cur)
    return out


def body_of(decl):
    """(tokens between the outermost braces, index of '{'), or (None, -1)."""
    if "{" not in decl:
        return None, -1
    start = decl.index("{")
    depth = 0
    for i in range(start, len(decl)):
        if decl[i] == "{":
            depth += 1
        elif decl[i] == "}":
            depth -= 1
            if depth == 0:
                return decl[start + 1:i], start
    return None, -1


def type_names(decl):
    """Every name a struct/union/enum declaration with a body goes by: its tag and its typedef names."""
    body, start = body_of(decl)
    if body is None:
        return None, []
    kind = None
    names = []
    for i in range(start):
        if decl[i] in ("struct", "union", "enum") and kind is None:
            kind = decl[i]
            if i + 1 < start and IDENT.match(decl[i + 1]) and decl[i + 1] not in KEYWORDS:
                names.append(decl[i + 1])
    if kind is None:
        return None, []
    if "typedef" in decl[:start]:
        depth = 0
        rest = decl[start:]
        for i, t in enumerate(rest):
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
            elif depth == 0 and IDENT.match(t) and t not in KEYWORDS and (i + 1 == len(rest) or rest[i + 1] in (",", ";")):
                names.append(t)
    return kind, names


def source_line(path, pattern, after=0):
    """The 1-based line and column of the first match of pattern in path at or after line `after`; (0, 0) if none."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return 0, 0
    for n in range(max(0, after - 1), len(lines)):
        m = re.search(pattern, lines[n])
        if m:
            return n + 1, m.start() + 1
    return 0, 0


def nested_type(toks, where):
    """A struct or union declared inside a state struct: the description names every type it holds by a name
    of its own, which a nested type has not. Refused in the compiler's format (file:line:col: error:), so the
    host's error list and an editor go to it, with what to write instead."""
    path, outer = where
    kind = "union" if "union" in toks and ("struct" not in toks or toks.index("union") < toks.index("struct")) else "struct"
    at = toks.index(kind)
    tag = toks[at + 1] if at + 1 < len(toks) and IDENT.match(toks[at + 1]) and toks[at + 1] not in KEYWORDS else ""
    close = len(toks) - 1 - toks[::-1].index("}")
    body = c_text(toks[toks.index("{") + 1:close])
    declarators = c_text(toks[close + 1:])
    outer_line, _ = source_line(path, r"\b(struct|union)\s+%s\b" % re.escape(outer))
    if tag:
        line, col = source_line(path, r"\b%s\s+%s\b" % (kind, re.escape(tag)), outer_line)
        msg = (f"{kind} {tag} is declared inside struct {outer}: the state's description names each type it holds, "
               f"and a nested one has no name of its own there. Declare it before {outer} "
               f"({kind} {tag} {{ {body} }};) and write the field as: {tag} {declarators};")
    else:
        line, col = source_line(path, r"\b%s\s*\{" % kind, outer_line + 1 if outer_line else 0)
        msg = (f"an unnamed {kind} inside struct {outer}: give it a name of its own and declare it before {outer} "
               f"({kind} Name {{ {body} }};), then write the field as: Name {declarators};")
    if line:
        fail_at(path, line, col, msg)
    fail(f"{path}: {msg}")


def c_text(toks):
    """Tokens back into C as a person writes it: `items[8]`, `int a;`."""
    out = ""
    for t in toks:
        if out and not (t in ("[", "]", ";", ",", ")") or out[-1] in ("[", "(")):
            out += " "
        out += t
    return out


def fail_at(path, line, col, msg):
    sys.stderr.write(f"{path}:{line}:{col}: error: {msg}\n")
    sys.exit(1)


def parse_member(member, place):
    """A member declaration -> (type tokens, [(name, is_pointer)], flags, old_name, count_of name). place: (the
    file the struct is declared in, the struct's name)."""
    where = f"{place[0]}: struct {place[1]}"
    flags, old, count_of, toks, i = [], "", "", [], 0
    while i < len(member):
        t = member[i]
        if t in MARKERS:
            if MARKERS[t]:
                if i + 3 >= len(member) or member[i + 1] != "(" or member[i + 3] != ")":
                    fail(f"{where}: {t.replace('__state_', 'STATE_').upper()} takes one field name in parentheses")
                arg = member[i + 2]
                if t == "__state_renamed":
                    old = arg
                else:
                    count_of = arg
                i += 4
                continue
            flags.append("THR_TRANSIENT")
            i += 1
            continue
        toks.append(t)
        i += 1
    if not toks or toks[0] in ("static", "typedef", "using", "friend", "template") or toks[0] == "public" or toks[0] == "private":
        return None
    if "(" in toks and "=" not in toks[:toks.index("(")] and "{" not in toks[:toks.index("(")]:
        fail(f"{where}: '{' '.join(toks)}' is not a plain field (the state holds data, not functions)")
    if ("struct" in toks or "union" in toks) and "{" in toks:
        nested_type(toks, place)
    decls = split_top(toks, ",")
    first = decls[0]
    stop = len(first)
    for j, t in enumerate(first):
        if t in ("[", "=", "{", ":"):
            stop = j
            break
    if ":" in first[stop:stop + 1] and stop < len(first):
        fail(f"{where}: bit-field '{' '.join(first)}' (offsetof cannot describe it)")
    name_at = None
    for j in range(stop - 1, -1, -1):
        if IDENT.match(first[j]) and first[j] not in KEYWORDS:
            name_at = j
            break
    if name_at is None or name_at == 0 and first[0] not in KEYWORDS:
        fail(f"{where}: cannot find the field name in '{' '.join(first)}'")
    type_toks = [t for t in first[:name_at] if t not in ("*", "&")]
    names = [first[name_at]]
    for d in decls[1:]:
        for t in d:
            if IDENT.match(t) and t not in KEYWORDS:
                names.append(t)
                break
    return type_toks, names, flags, old, count_of


def write_types(decls, header, root, path):
    by_type, file_of = {}, {}
    for d, f in decls:
        kind, names = type_names(d)
        if kind:
            for n in names:
                by_type.setdefault(n, (kind, d))
                file_of.setdefault(n, f)
    if root not in by_type or by_type[root][0] != "struct":
        fail(f"{header}: no struct {root} to describe")
    structs, enums, fields = [], [], {}
    seen = set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        kind, d = by_type[name]
        if kind == "enum":
            enums.append((name, d))
            return
        if kind == "union":
            return   # opaque: copied only to the same type
        body, _ = body_of(d)
        members = []
        for m in split_top(body, ";"):
            if not m:
                continue
            parsed = parse_member(m, (file_of.get(name) or header, name))
            if parsed is None:
                continue
            type_toks, names, flags, old, count_of = parsed
            for t in type_toks:
                if t in by_type and t != name:
                    visit(t)
            for n in names:
                members.append((n, flags, old, count_of))
        fields[name] = members
        structs.append(name)

    visit(root)
    # the pool of names: "" first, then each name once
    pool, at = [""], {"": 0}
    size = 1

    def name_at(s):
        nonlocal size
        if s not in at:
            at[s] = size
            pool.append(s)
            size += len(s) + 1
        return at[s]

    type_index = {n: i for i, n in enumerate(structs)}
    enum_index = {n: i for i, (n, _) in enumerate(enums)}
    lines = []
    w = lines.append
    w(f"/* state_types.inc - the description of {root} and every type it holds, for th_reflect.h; written by")
    w(f"   tools/layout_stamp.py from {header}. Names come from the source, everything else from the compiler. */")
    for n, i in type_index.items():
        w(f"template <> struct thr_index<{n}> {{ enum {{ value = {i} }}; }};")
    for n, i in enum_index.items():
        w(f"template <> struct thr_index<{n}> {{ enum {{ value = {i} }}; }};")
    type_rows, field_rows, enum_rows, value_rows, asserts = [], [], [], [], []
    first = 0
    for s in structs:
        members = fields[s]
        type_rows.append(f"{{ {name_at(s)}, (uint32_t)sizeof({s}), (uint32_t)alignof({s}), {first}, {len(members)} }}")
        names_here = [m[0] for m in members]
        for n, flags, old, count_of in members:
            if count_of and count_of not in names_here:
                fail(f"{header}: {s}.{n}: STATE_COUNT_OF({count_of}) names no field of {s}")
            co = names_here.index(count_of) + 1 if count_of else 0
            fl = " | ".join(flags + [f"THR_KIND_FLAGS({s}, {n})"])
            field_rows.append(f"{{ {name_at(n)}, {name_at(old) if old else 0}, (uint32_t)offsetof({s}, {n}), "
                              f"(uint32_t)sizeof((({s} *)0)->{n}), THR_ELEM_SIZE({s}, {n}), THR_COUNT({s}, {n}), "
                              f"THR_KIND({s}, {n}), THR_INDEX({s}, {n}), {fl}, {co} }}")
            asserts.append(f"static_assert(THR_KIND({s}, {n}) != THR_STRUCT || THR_INDEX({s}, {n}) != THR_NONE, "
                           f"\"{s}.{n}: a struct the description does not know (a typedef of a typedef?)\");")
        first += len(members)
    vcount = 0
    for n, d in enums:
        body, _ = body_of(d)
        values = []
        for piece in split_top(body, ","):
            if piece and IDENT.match(piece[0]):
                values.append(piece[0])
        enum_rows.append(f"{{ {name_at(n)}, {vcount}, {len(values)}, 0 }}")
        for v in values:
            value_rows.append(f"{{ {name_at(v)}, 0, (int64_t){v} }}")
        vcount += len(values)
    nt, nf, ne, nv = len(structs), len(field_rows), len(enum_rows), len(value_rows)
    w("struct GameStateTypes {")
    w("    thr_header header;")
    w(f"    thr_type   types[{nt}];")
    w(f"    thr_field  fields[{max(nf, 1)}];")
    w(f"    thr_enum   enums[{max(ne, 1)}];")
    w(f"    thr_value  values[{max(nv, 1)}];")
    w(f"    char       names[{size}];")
    w("};")
    w("static const GameStateTypes GAME_STATE_TYPES = {")
    w(f"    {{ THR_MAGIC, THR_VERSION, (uint32_t)sizeof(GameStateTypes), {type_index[root]}, {nt}, {nf}, {ne}, {nv}, {size},")
    w("      (uint32_t)offsetof(GameStateTypes, types), (uint32_t)offsetof(GameStateTypes, fields), "
      "(uint32_t)offsetof(GameStateTypes, enums),")
    w("      (uint32_t)offsetof(GameStateTypes, values), (uint32_t)offsetof(GameStateTypes, names) },")
    w("    {\n        " + ",\n        ".join(type_rows) + "\n    },")
    w("    {\n        " + ",\n        ".join(field_rows or ["{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }"]) + "\n    },")
    w("    {\n        " + ",\n        ".join(enum_rows or ["{ 0, 0, 0, 0 }"]) + "\n    },")
    w("    {\n        " + ",\n        ".join(value_rows or ["{ 0, 0, 0 }"]) + "\n    },")
    # one literal: the leading "" of the pool, each name and its NUL (the last NUL is the literal's own)
    w("    \"\\0\" " + " ".join([f'"{s}\\0"' for s in pool[1:-1]] + [f'"{pool[-1]}"']) if len(pool) > 1 else '    ""')
    w("};")
    lines.extend(asserts)
    text = "\n".join(lines) + "\n"
    write_if_changed(path, text)


def write_if_changed(path, text):
    """path holds text afterwards; an unchanged file keeps its time (a build that watches it compiles nothing)."""
    try:
        old_text = open(path).read()
    except OSError:
        old_text = None
    if old_text != text:
        tmp = f"{path}.{os.getpid()}.tmp"
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)


def main():
    args = sys.argv[1:]
    types_path = None
    header_path = None
    root = "GameState"
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt.startswith("--types="):
            types_path = opt[len("--types="):]
        elif opt.startswith("--header="):
            header_path = opt[len("--header="):]
        elif opt.startswith("--root="):
            root = opt[len("--root="):]
        else:
            fail(f"unknown option {opt}")
    if len(args) < 2:
        fail("usage: layout_stamp.py [--types=PATH] [--header=PATH] [--root=NAME] CXX STATE_HEADER [flags...]")
    cxx, header, flags = args[0], args[1], args[2:]
    if types_path is None:
        project = os.path.dirname(os.path.dirname(os.path.abspath(header)))
        types_path = os.path.join(project, "build", "game", "state_types.inc")
    msvc = os.path.basename(cxx).lower() in ("cl", "cl.exe")
    cmd = [cxx, "/nologo", "/E", "/TP", "/DSTATE_REFLECT_PASS", *flags, header] if msvc else \
          [cxx, "-x", "c++", "-E", "-DSTATE_REFLECT_PASS", *flags, header]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        fail(f"cannot run {cxx}: {e}")
    if p.returncode != 0:
        fail(f"preprocessing {header} failed:\n{p.stderr.strip()}")
    decls = [(d, f) for d, f, fn in declarations(tokens_with_files(p.stdout)) if is_layout(d, fn)]
    defined = [names_defined(d) for d, _ in decls]
    by_name = {}
    for i, names in enumerate(defined):
        for n in names:
            by_name.setdefault(n, []).append(i)
    def slashed(path):  # cl writes "C:\\dir\\state.h" in its line markers
        return path.replace("\\\\", "/").replace("\\", "/")
    base = slashed(header).split("/")[-1]
    roots = [i for i, (_, f) in enumerate(decls) if f == header or slashed(f).endswith("/" + base) or slashed(f) == base]
    if not roots:
        fail(f"{header} declares no types: nothing to stamp")
    reached, todo = set(roots), list(roots)
    while todo:
        i = todo.pop()
        for t in decls[i][0]:
            for j in by_name.get(t, ()):
                if j not in reached:
                    reached.add(j)
                    todo.append(j)
    h = hashlib.sha1()
    for i in sorted(reached):
        h.update(" ".join(decls[i][0]).encode())
        h.update(b"\n")
    write_types([decls[i] for i in sorted(reached)], header, root, types_path)
    stamp = int.from_bytes(h.digest()[:4], "little")
    if header_path:
        write_if_changed(header_path, f"/* the layout stamp of {os.path.basename(header)} (tools/layout_stamp.py) */\n"
                         f"#define GAME_LAYOUT_HASH {stamp}u\n")
    print(stamp)


if __name__ == "__main__":
    main()
