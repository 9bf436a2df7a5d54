#!/usr/bin/env python3
"""Flash's blend modes computed in NumPy floating point from an Animate texture-atlas export: the reference that
BlendReferenceTests compares `keyframe render` with.

    python3 blend_reference.py EXPORT_FOLDER WIDTH HEIGHT OUT.raw

Reads Animation.json and spritemap1.json/.png (PNG decoded here with zlib), draws frame 0 of the root timeline
onto a transparent WIDTH x HEIGHT canvas and writes premultiplied RGBA, 8 bits a channel, row by row.

Only what the blend sample uses is supported (anything else is an error): placements by whole-pixel translations,
the "CA" alpha colour effect, unrotated sprites, frame 0 of every timeline.

The model, from the ActionScript 3 reference (flash.display.BlendMode, DisplayObject.blendMode) and the W3C
Compositing and Blending spec that Ruffle's blend shaders follow:
- A display object with a blend mode other than normal is drawn as one picture (a transparency group: its content
  drawn normally into a transparent buffer), which is then blended onto what is behind it, with its colour
  transform's alpha applied to the whole picture.
- "alpha" and "erase" act on the picture of the group they are drawn into; with no group around them (at the root)
  they draw nothing (Ruffle does the same).
- Pictures are 8-bit premultiplied; every composite is computed in floating point and rounded to 8 bits.
Separable modes use Co = Sc(1 - Da) + Dc(1 - Sa) + Sa Da B(cs, cd) on unpremultiplied cs = Sc/Sa, cd = Dc/Da, and
alpha Sa + Da - Sa Da.
"""
import json
import os
import struct
import sys
import zlib

import numpy as np


def read_json(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return json.loads(data.decode("utf-8"))


def read_png(path):
    """8-bit RGBA, non-interlaced PNG → float array (h, w, 4) of straight values 0...255."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour == 6 and interlace == 0, "only 8-bit RGBA"
    raw = zlib.decompress(idat)
    stride = width * 4
    out = np.zeros((height, stride), dtype=np.int64)
    previous = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int64)
        row = np.zeros(stride, dtype=np.int64)
        for x in range(stride):
            a = row[x - 4] if x >= 4 else 0
            b = previous[x]
            c = previous[x - 4] if x >= 4 else 0
            if kind == 0:
                p = 0
            elif kind == 1:
                p = a
            elif kind == 2:
                p = b
            elif kind == 3:
                p = (a + b) // 2
            else:
                e = a + b - c
                pa, pb, pc = abs(e - a), abs(e - b), abs(e - c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            row[x] = (line[x] + p) & 0xFF
        out[y] = row
        previous = row
    return out.reshape(height, width, 4).astype(np.float64)


def quantize(picture):
    """An 8-bit picture (values 0...1 in steps of 1/255)."""
    return np.round(np.clip(picture, 0.0, 1.0) * 255.0) / 255.0


def separable(function):
    def blend(s, d):
        sa, da = s[..., 3:4], d[..., 3:4]
        cs = np.where(sa > 0, s[..., :3] / np.where(sa > 0, sa, 1), 0.0)
        cd = np.where(da > 0, d[..., :3] / np.where(da > 0, da, 1), 0.0)
        colour = s[..., :3] * (1 - da) + d[..., :3] * (1 - sa) + sa * da * function(cs, cd)
        return np.concatenate([colour, sa + da - sa * da], axis=-1)
    return blend


def hard_light(top, bottom):
    """Multiply where `top` is at most half, screen elsewhere (the W3C hard-light function B(top, bottom))."""
    return np.where(top <= 0.5, 2 * top * bottom, 1 - 2 * (1 - top) * (1 - bottom))


def over_alpha(s, d):
    return s[..., 3:4] + d[..., 3:4] * (1 - s[..., 3:4])


BLENDS = {
    "normal": lambda s, d: s + d * (1 - s[..., 3:4]),
    "layer": lambda s, d: s + d * (1 - s[..., 3:4]),
    "add": lambda s, d: np.minimum(1.0, s + d),
    "multiply": separable(lambda cs, cd: cs * cd),
    "screen": lambda s, d: s + d - s * d,
    "lighten": separable(np.maximum),
    "darken": separable(np.minimum),
    "difference": separable(lambda cs, cd: np.abs(cs - cd)),
    "invert": separable(lambda cs, cd: 1 - cd),
    "overlay": separable(lambda cs, cd: hard_light(cd, cs)),
    "hardlight": separable(hard_light),
    "subtract": lambda s, d: np.concatenate([np.maximum(0.0, d[..., :3] - s[..., :3]), over_alpha(s, d)], axis=-1),
    "alpha": lambda s, d: np.where(s[..., 3:4] > 0, d * s[..., 3:4], d),
    "erase": lambda s, d: d * (1 - s[..., 3:4]),
}


class Export:
    def __init__(self, folder):
        self.animation = read_json(os.path.join(folder, "Animation.json"))
        atlas = read_json(os.path.join(folder, "spritemap1.json"))
        straight = read_png(os.path.join(folder, atlas["meta"]["image"]))
        alpha = straight[..., 3:4]
        # Flash keeps bitmaps premultiplied in 8 bits.
        self.atlas = quantize(np.concatenate([straight[..., :3] * alpha / 255.0, alpha], axis=-1) / 255.0)
        self.sprites = {}
        for entry in atlas["ATLAS"]["SPRITES"]:
            sprite = entry["SPRITE"]
            assert not sprite["rotated"], "rotated sprites are not supported here"
            self.sprites[sprite["name"]] = (sprite["x"], sprite["y"], sprite["w"], sprite["h"])
        self.symbols = {s["SN"]: s for s in self.animation["SD"]["S"]}

    @staticmethod
    def translation(m3d):
        assert all(abs(m3d[i] - v) < 1e-9 for i, v in ((0, 1), (1, 0), (4, 0), (5, 1))), "only translations"
        x, y = m3d[12], m3d[13]
        assert x == int(x) and y == int(y), "only whole-pixel translations"
        return int(x), int(y)

    def draw_timeline(self, timeline, target, x0, y0, alpha, in_group):
        # Layers are listed top first; elements of a frame bottom first.
        for layer in reversed(timeline["L"]):
            frame = layer["FR"][0]
            for element in frame["E"]:
                if "ASI" in element:
                    self.draw_sprite(element["ASI"], target, x0, y0, alpha)
                else:
                    self.draw_symbol(element["SI"], target, x0, y0, alpha, in_group)

    def draw_sprite(self, asi, target, x0, y0, alpha):
        dx, dy = self.translation(asi["M3D"])
        sx, sy, w, h = self.sprites[asi["N"]]
        picture = self.atlas[sy:sy + h, sx:sx + w] * alpha
        self.composite(picture, target, x0 + dx, y0 + dy, "normal")

    def draw_symbol(self, si, target, x0, y0, alpha, in_group):
        dx, dy = self.translation(si["M3D"])
        mode = si.get("B", "normal")
        own = 1.0
        if "C" in si:
            assert si["C"]["M"] == "CA", "only the alpha colour effect"
            own = si["C"]["AM"]
        timeline = self.symbols[si["SN"]]["TL"]
        if mode == "normal":
            self.draw_timeline(timeline, target, x0 + dx, y0 + dy, alpha * own, in_group)
            return
        if mode in ("alpha", "erase") and not in_group:
            return
        group = np.zeros_like(target)
        self.draw_timeline(timeline, group, x0 + dx, y0 + dy, 1.0, True)
        self.composite(group * (alpha * own), target, 0, 0, mode)

    @staticmethod
    def composite(picture, target, x, y, mode):
        h, w = picture.shape[:2]
        x1, y1 = max(x, 0), max(y, 0)
        x2, y2 = min(x + w, target.shape[1]), min(y + h, target.shape[0])
        if x1 >= x2 or y1 >= y2:
            return
        s = picture[y1 - y:y2 - y, x1 - x:x2 - x]
        d = target[y1:y2, x1:x2]
        target[y1:y2, x1:x2] = quantize(BLENDS[mode](s, d))


def main():
    folder, width, height, output = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    export = Export(folder)
    canvas = np.zeros((height, width, 4))
    export.draw_timeline(export.animation["AN"]["TL"], canvas, 0, 0, 1.0, False)
    with open(output, "wb") as f:
        f.write(np.round(canvas * 255).astype(np.uint8).tobytes())


if __name__ == "__main__":
    main()
