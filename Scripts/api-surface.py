#!/usr/bin/env python3
"""Counts the public API of each library product: declarations, and how many carry a doc comment.

    Scripts/api-surface.py [--skip-build]

Runs `swift package dump-symbol-graph --minimum-access-level public` (the compiler's own symbol graphs; with
--skip-build the graphs already in .build are read) and `swift package dump-package` (which targets each library
product holds), then prints, per product, the public and open declarations its targets declare — extensions of other
modules' types included (the `Module@Other` graphs), members the compiler synthesizes (`Equatable`'s `!=`, protocol
defaults) excluded — and the share with a doc comment. The total is the figure docs/architecture.md records.
"""

import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(arguments):
    env = dict(os.environ, KEYFRAME_OPTIMIZE_PIXELS=os.environ.get("KEYFRAME_OPTIMIZE_PIXELS", "1"))
    return subprocess.run(arguments, cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE).stdout.decode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    if not args.skip_build:
        run(["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"])
    dump = run(["swift", "package", "dump-package"])
    package = json.loads(dump[dump.index("{"):])
    folders = glob.glob(os.path.join(ROOT, ".build", "*", "symbolgraph"))
    if not folders:
        print("api-surface: no symbol graphs in .build (run without --skip-build)", file=sys.stderr)
        return 1
    folder = folders[0]

    def symbols(module):
        found = {}
        for path in [os.path.join(folder, f"{module}.symbols.json")] + glob.glob(
                os.path.join(folder, f"{module}@*.symbols.json")):
            if not os.path.exists(path):
                continue
            with open(path) as f:
                graph = json.load(f)
            for symbol in graph["symbols"]:
                identifier = symbol["identifier"]["precise"]
                if symbol.get("accessLevel") not in ("public", "open") or "::SYNTHESIZED::" in identifier:
                    continue
                found[identifier] = bool(symbol.get("docComment", {}).get("lines"))
        return found

    total = documented = 0
    rows = []
    for product in package["products"]:
        if "library" not in product["type"]:
            continue
        found = {}
        for target in product["targets"]:
            found.update(symbols(target))
        count, docs = len(found), sum(found.values())
        total += count
        documented += docs
        rows.append((product["name"], count, docs))
    width = max(len(name) for name, _, _ in rows)
    for name, count, docs in rows:
        share = 100 * docs / count if count else 100
        print(f"{name:<{width}}  {count:5d} public  {share:5.1f} % documented")
    share = 100 * documented / total if total else 100
    print(f"{'total':<{width}}  {total:5d} public  {share:5.1f} % documented ({len(rows)} library products)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
