#!/usr/bin/env python3
"""Compares Keyframe's sprite-sheet page area with TextureAtlas Toolbox's packers on the same frames.

Usage: Scripts/sheet-packing-compare.py TOOLBOX_FOLDER SHEET.json...  (sheets written with --sheet-format json-hash
and one page). The stored rectangles of each sheet (distinct trimmed frames) are packed by every algorithm and
heuristic the Toolbox registers, with the sheet's padding given as PADDING (default 2); the smallest atlas area is
compared with the sheet's page. TOOLBOX_FOLDER is a checkout of TextureAtlas Toolbox (fetched, never committed).
"""
import json
import os
import sys


def main():
    toolbox, sheets = sys.argv[1], sys.argv[2:]
    padding = int(os.environ.get("PADDING", "2"))
    sys.path.insert(0, os.path.join(toolbox, "src"))
    from packers import packer_registry
    from packers.packer_types import FrameInput, PackerOptions
    print("| sheet | stored frames | Keyframe page | Toolbox best (algorithm, heuristic) | ratio |")
    print("|---|---|---|---|---|")
    for path in sheets:
        data = json.load(open(path))
        rects = sorted({(f["frame"]["x"], f["frame"]["y"], f["frame"]["w"], f["frame"]["h"])
                        for f in data["frames"].values()})
        ours = data["meta"]["size"]["w"] * data["meta"]["size"]["h"]
        best = None
        for algorithm in packer_registry.list_algorithms():
            name = algorithm["name"]
            packer_class = packer_registry.get_packer(name).__class__
            heuristics = [h[0] if isinstance(h, tuple) else h
                          for h in getattr(packer_class, "SUPPORTED_HEURISTICS", [None])] or [None]
            for heuristic in heuristics:
                frames = [FrameInput(id=str(i), width=w, height=h) for i, (_, _, w, h) in enumerate(rects)]
                options = PackerOptions(max_width=4096, max_height=4096, padding=padding)
                result = packer_registry.pack(name, frames, options, heuristic=heuristic)
                if result.success:
                    area = result.atlas_width * result.atlas_height
                    if best is None or area < best[0]:
                        best = (area, name, heuristic, result.atlas_width, result.atlas_height)
        page = "%d×%d" % (data["meta"]["size"]["w"], data["meta"]["size"]["h"])
        theirs = "%d×%d (%s, %s)" % (best[3], best[4], best[1], best[2])
        print("| %s | %d | %s | %s | %.3f |" % (os.path.basename(os.path.dirname(path)), len(rects), page, theirs,
                                               ours / best[0]))


if __name__ == "__main__":
    sys.exit(main())
