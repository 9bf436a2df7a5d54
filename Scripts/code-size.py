#!/usr/bin/env python3
"""Measures the sizes a newcomer meets: functions longer than a limit and files with more than one primary type.

    Scripts/code-size.py [--limit 120] [--check] [FOLDER ...]     (default folders: Sources Examples)

A function's length is counted from the line of its `func`, `init`, `subscript` or `deinit` keyword to the line of
its closing brace (found by matching braces outside strings and comments). A file's primary types are the `struct`,
`class`, `enum`, `actor` and `protocol` declarations at the top level (nested types and extensions do not count).
Prints the functions over the limit, longest first, and the files with several primary types; `--check` exits 1
when any function is over the limit.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNC = re.compile(r"\b(func\s+[^\s(<]+|init[?!]?\s*[(<]|subscript\s*[(<]|deinit\s*\{)")
TYPE = re.compile(r"^(?:(?:public|package|internal|fileprivate|private|final|open|indirect|@\w+(?:\([^)]*\))?)\s+)*"
                  r"(struct|class|enum|actor|protocol)\s+(\w+)")


def code_only(text):
    """The text with comments and string literals blanked (newlines kept), so braces can be matched."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i)); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(path):
    text = code_only(open(path, encoding="utf-8").read())
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    found = []
    for match in FUNC.finditer(text):
        brace = text.find("{", match.end() - 1)
        semicolon_or_newline_decl = text.find("\n", match.end())
        if brace < 0:
            continue
        # A protocol requirement has no body: the next declaration keyword comes before any brace.
        between = text[match.end():brace]
        if re.search(r"\n\s*(func|var|let|init|case|}|static|public|mutating)\b", between):
            continue
        depth, j = 0, brace
        while j < len(text):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        start = text.count("\n", 0, match.start()) + 1
        end = text.count("\n", 0, j) + 1
        name = match.group(1).split("(")[0].replace("func", "").strip() or match.group(1).strip("({< ")
        found.append((end - start + 1, start, name))
    return found


def primary_types(path):
    names = []
    depth = 0
    for line in code_only(open(path, encoding="utf-8").read()).split("\n"):
        if depth == 0:
            m = TYPE.match(line.strip())
            if m and not line.startswith((" ", "\t")):
                names.append(m.group(2))
        depth += line.count("{") - line.count("}")
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("folders", nargs="*", default=["Sources", "Examples"])
    args = parser.parse_args()
    long_functions, multi = [], []
    files = 0
    for folder in args.folders:
        for base, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(base, name)
                rel = os.path.relpath(path, ROOT)
                files += 1
                for length, line, fn in functions(path):
                    if length > args.limit:
                        long_functions.append((length, f"{rel}:{line}", fn))
                types = primary_types(path)
                if len(types) > 1:
                    multi.append((rel, types))
    long_functions.sort(reverse=True)
    print(f"{files} files; {len(long_functions)} functions over {args.limit} lines; "
          f"{len(multi)} files with more than one primary type")
    for length, where, fn in long_functions:
        print(f"  {length:4d} lines  {where}  {fn}")
    for rel, types in multi:
        print(f"  {rel}: {', '.join(types)}")
    return 1 if args.check and long_functions else 0


if __name__ == "__main__":
    sys.exit(main())
