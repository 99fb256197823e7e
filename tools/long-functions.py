#!/usr/bin/env python3
"""List C++ function bodies of N lines or more (default 100) in the project's own code.

A brace-counting scanner, not a parser: comments, string and character literals (raw strings
included) are blanked first; then every top-level '{' (at namespace/class scope) whose header looks
like a function (it ends in ')' optionally followed by qualifiers, '-> type', an initializer list
or 'override') starts a function that runs to its matching '}'. Lambdas and local classes inside a
function count as part of that function, as clang-tidy's readability-function-size does. Length is
counted like LineThreshold: lines from the opening brace to the closing brace inclusive.

Why not clang-tidy: readability-function-size (LineThreshold 99) over build/asan/compile_commands.json
agrees with this scan on engine/validation/Runner.cpp but parses every translation unit: about 5 s
of CPU per file here (4 min of wall time for Runner.cpp on the shared two cores), so half an hour or
more for the tree, against under a second for this scan. To cross-check one file:
  clang-tidy -p build/asan --quiet --extra-arg=-Wno-unknown-warning-option
    -checks='-*,readability-function-size'
    -config='{CheckOptions: [{key: readability-function-size.LineThreshold, value: 99}]}' FILE

usage: tools/long-functions.py [--threshold N] [--max N] [paths...]
       (default paths: app engine models widgets tests/kube-testserver, relative to the repo root)
exit status: 0, or 1 with --max N when any function is longer than N lines.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIRS = ["app", "engine", "models", "widgets", "tests/kube-testserver"]
EXTS = (".cpp", ".cc", ".cxx", ".h", ".hpp")


def blank(text):
    """Replace comments and literals by spaces, keeping newlines (so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_') or text[i - 1] in "8uUL"):
            m = re.match(r'R"([^(\s]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum() and text[i + 1:i + 2].isalnum())):
            # a ' between two alphanumerics is a digit separator (1'000), not a literal
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


HEADER_END = re.compile(
    r"\)\s*(const|noexcept(\s*\([^)]*\))?|override|final|volatile|&&?|mutable|\s)*"
    r"(->\s*[^;{}]+?)?\s*(:\s*[^;{}]*)?$", re.S)
NOT_FUNCTION = re.compile(r"\b(namespace|class|struct|union|enum|if|for|while|switch|catch|do|else|return)\b[^()]*$")
NAME_BEFORE_PAREN = re.compile(r"([~\w:<>]+(?:operator\s*[^\s(]+)?)\s*\($")


def function_name(header):
    # the name is the identifier before the first '(' at paren depth 0 of the declarator
    depth = 0
    for k, ch in enumerate(header):
        if ch == "(":
            if depth == 0:
                m = NAME_BEFORE_PAREN.search(header[:k + 1].rstrip())
                if m:
                    return m.group(1)
            depth += 1
        elif ch == ")":
            depth -= 1
    return header.strip().split("\n")[-1][:60]


def scan(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank(f.read())
    # remove preprocessor lines (keep newlines)
    text = re.sub(r"(?m)^[ \t]*#.*(\\\n.*)*$", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    results = []
    scopes = []  # stack of (kind, start_offset, name); kind 'scope' or 'func'
    last_stmt_end = 0
    line_of = lambda off: text.count("\n", 0, off) + 1
    i = 0
    for m in re.finditer(r"[{};]", text):
        ch, off = m.group(0), m.start()
        in_func = any(k == "func" for k, _, _ in scopes)
        if ch == ";":
            if not in_func:
                last_stmt_end = off + 1
            continue
        if ch == "{":
            if in_func:
                scopes.append(("inner", off, None))
                continue
            header = text[last_stmt_end:off]
            # drop access specifiers and attributes from the header
            header = re.sub(r"\b(public|private|protected|signals|slots|Q_SLOTS|Q_SIGNALS)\s*:(?!:)", " ", header)
            h = header.strip()
            if h and "(" in h and not NOT_FUNCTION.search(h.split("(")[0]) and HEADER_END.search(h) and not h.rstrip().endswith("="):
                scopes.append(("func", off, function_name(h)))
            else:
                scopes.append(("scope", off, None))
            last_stmt_end = off + 1
        else:  # '}'
            if not scopes:
                continue
            kind, start, name = scopes.pop()
            if kind == "func":
                a, b = line_of(start), line_of(off)
                results.append((b - a + 1, a, name))
            if not any(k == "func" for k, _, _ in scopes):
                last_stmt_end = off + 1
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threshold", type=int, default=100)
    ap.add_argument("--max", type=int, default=0, help="fail when a function is longer than this")
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    paths = args.paths or [os.path.join(ROOT, d) for d in DEFAULT_DIRS]
    files = []
    for p in paths:
        if os.path.isfile(p):
            files.append(p)
        for dirpath, _, names in os.walk(p):
            files += [os.path.join(dirpath, n) for n in names if n.endswith(EXTS)]
    found = []
    for path in sorted(files):
        for length, line, name in scan(path):
            if length >= args.threshold:
                found.append((length, os.path.relpath(path, ROOT), line, name))
    found.sort(key=lambda r: (-r[0], r[1], r[2]))
    for length, rel, line, name in found:
        print(f"{rel}:{line}: {length} lines  {name}")
    print(f"{len(found)} functions of {args.threshold} lines or more in {len(files)} files")
    if args.max and any(r[0] > args.max for r in found):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
