#!/usr/bin/env python3
"""layout_stamp.py - the game's layout stamp: a hash of exactly the types that live in the memory block.

    layout_stamp.py CXX STATE_HEADER [compiler flags...]    prints the stamp (a decimal u32)

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


def main():
    if len(sys.argv) < 3:
        fail("usage: layout_stamp.py CXX STATE_HEADER [flags...]")
    cxx, header, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        p = subprocess.run([cxx, "-x", "c++", "-E", *flags, header], capture_output=True, text=True)
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
    roots = [i for i, (_, f) in enumerate(decls) if f == header or f.endswith("/" + header.split("/")[-1])]
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
    print(int.from_bytes(h.digest()[:4], "little"))


if __name__ == "__main__":
    main()
