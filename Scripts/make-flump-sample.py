#!/usr/bin/env python3
"""Generates Keyframe's bundled Flump sample, Samples/flump-hopbot/: a small original robot written as a real
Flump export (library.json in the current schema + PNG atlases; see /work/shared/reference/formats.md §4).

    python3 Scripts/make-flump-sample.py            # writes Samples/flump-hopbot/...
    python3 Scripts/make-flump-sample.py OUT_DIR    # writes OUT_DIR/flump-hopbot/... instead

Everything is drawn and animated by this script (no third-party art). Output is deterministic: the same script
writes the same bytes. Python 3 standard library only; the painter, the PNG writer (zlib + struct) and the JSON
layout are shared with Scripts/make-samples.py.

What it exercises
  - three movies: the root "robot" (48 frames) nests "blink" (a flipbook movie, 12 frames) and "antenna"
    (9 frames), each running on its own clock;
  - tweens with Flump eases of both signs (ease −1 = fast start, ease 1 = slow start), a true skew
    (skewX ≠ skewY), rotation (skewX = skewY), scale and alpha tweens, `tweened: false` holds;
  - pivots in texture pixels (the runtime replaces the texture origin by the keyframe pivot);
  - labels "hop" (frame 0) and "wave" (frame 24) → clips robot:hop and robot:wave;
  - an empty keyframe (the sign appears at frame 30), `visible: false` (frames 40–43);
  - two texture groups: scale factor 1 (atlas0.png) and 2 (atlas0@2x.png, drawn at twice the resolution).
"""
import importlib.util
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "flump-hopbot"

_spec = importlib.util.spec_from_file_location("make_samples", os.path.join(ROOT, "Scripts", "make-samples.py"))
samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(samples)
Canvas, write_png, write_json = samples.Canvas, samples.write_png, samples.write_json


def num(x):
    """Rounded to 4 decimals like Flump's exporter, written as an integer when it is one."""
    value = samples.num(x)
    return int(value) if value == int(value) else value

# ---------------------------------------------------------------------------------------------------------------
# Textures: (name, width, height, origin, painter) at 1×; painters take the canvas and the scale s.


def paint_body(c, s):
    c.outlined_round_rect(1 * s, 1 * s, 35 * s, 39 * s, 6 * s, "#2A9D8F", "#1B5E57", 2 * s)
    c.round_rect(8 * s, 10 * s, 28 * s, 26 * s, 3 * s, "#E9F5F3")
    c.ellipse(13 * s, 18 * s, 3 * s, 3 * s, "#E76F51")
    c.ellipse(23 * s, 18 * s, 3 * s, 3 * s, "#F4A261")


def paint_head(c, s):
    c.outlined_round_rect(1 * s, 1 * s, 31 * s, 25 * s, 8 * s, "#8DA9C4", "#3E5C76", 2 * s)


def paint_eyes_open(c, s):
    for cx in (5, 15):
        c.ellipse(cx * s, 4 * s, 3.6 * s, 3.6 * s, "#FFFFFF")
        c.ellipse((cx + 0.8) * s, 4.3 * s, 1.6 * s, 1.6 * s, "#1D3557")


def paint_eyes_closed(c, s):
    for cx in (5, 15):
        c.round_rect((cx - 3.5) * s, 3.2 * s, (cx + 3.5) * s, 4.8 * s, 0.8 * s, "#1D3557")


def paint_antenna(c, s):
    c.round_rect(3 * s, 6 * s, 5 * s, 18 * s, 1 * s, "#3E5C76")
    c.outlined_ellipse(4 * s, 4 * s, 3.5 * s, 3.5 * s, "#E63946", "#9B2226", 1 * s)


def paint_shadow(c, s):
    c.ellipse(22 * s, 5 * s, 21 * s, 4.5 * s, "#000000", 0.5)


def paint_sign(c, s):
    c.outlined_round_rect(1 * s, 1 * s, 29 * s, 15 * s, 3 * s, "#FFD166", "#B08900", 1.5 * s)
    c.round_rect(7 * s, 5 * s, 9 * s, 11 * s, 0.8 * s, "#6B4F00")
    c.round_rect(12 * s, 5 * s, 14 * s, 11 * s, 0.8 * s, "#6B4F00")
    c.round_rect(7 * s, 7.2 * s, 14 * s, 8.8 * s, 0.5 * s, "#6B4F00")
    c.round_rect(19 * s, 5 * s, 21 * s, 11 * s, 0.8 * s, "#6B4F00")


TEXTURES = [
    ("body", 36, 40, (18, 40), paint_body),
    ("head", 32, 26, (16, 26), paint_head),
    ("blink_flipbook_0", 20, 8, (10, 4), paint_eyes_open),
    ("blink_flipbook_9", 20, 8, (10, 4), paint_eyes_closed),
    ("antenna_stick", 8, 18, (4, 18), paint_antenna),
    ("shadow", 44, 10, (22, 5), paint_shadow),
    ("sign", 30, 16, (15, 16), paint_sign),
]


def make_atlas(folder, file, s):
    """Packs the textures on shelves (1 px padding per scale unit) into a power-of-two-wide image."""
    width = 128 * s
    pad = s
    x, y, shelf = pad, pad, 0
    placed = []
    for name, w, h, origin, paint in TEXTURES:
        cw, ch = w * s, h * s
        if x + cw + pad > width:
            x, y, shelf = pad, y + shelf + pad, 0
        canvas = Canvas(cw, ch)
        paint(canvas, s)
        placed.append((name, x, y, canvas, origin))
        x += cw + pad
        shelf = max(shelf, ch)
    height = y + shelf + pad
    pixels = [[(0, 0, 0, 0)] * width for _ in range(height)]
    textures = []
    for name, px, py, canvas, origin in placed:
        for v in range(canvas.height):
            for u in range(canvas.width):
                pixels[py + v][px + u] = canvas.rgba(u, v)
        textures.append({"symbol": name, "rect": [px, py, canvas.width, canvas.height],
                         "origin": [origin[0] * s, origin[1] * s]})
    write_png(os.path.join(folder, file), width, height, pixels)
    return {"file": file, "textures": textures}


# ---------------------------------------------------------------------------------------------------------------
# Movies. Keyframes list only non-default fields, as Flump's KeyframeMold.toJSON does.


def kf(index, duration, ref=None, loc=None, scale=None, skew=None, pivot=None, alpha=None, visible=None,
       tweened=None, ease=None, label=None):
    k = {"index": index, "duration": duration}
    if ref is not None:
        k["ref"] = ref
        if loc and loc != (0, 0):
            k["loc"] = [num(v) for v in loc]
        if scale and scale != (1, 1):
            k["scale"] = [num(v) for v in scale]
        if skew and skew != (0, 0):
            k["skew"] = [num(v) for v in skew]
        if pivot and pivot != (0, 0):
            k["pivot"] = [num(v) for v in pivot]
        if alpha is not None and alpha != 1:
            k["alpha"] = num(alpha)
        if visible is False:
            k["visible"] = False
        if tweened is False:
            k["tweened"] = False
        if ease:
            k["ease"] = num(ease)
    if label is not None:
        k["label"] = label
    return k


TILT = -0.2  # radians: the head's tilt while waving (counter-clockwise on screen)
TILTED_NECK = (-3, -38)


def on_tilted_head(dx, dy):
    """Where a point (dx, dy) from the neck lands once the head has turned by TILT about the moved neck."""
    c, s = math.cos(TILT), math.sin(TILT)
    return (TILTED_NECK[0] + dx * c - dy * s, TILTED_NECK[1] + dx * s + dy * c)


def robot():
    """48 frames: a hop (0–23: up with a fast start, down with a slow start), then a wave (24–47: the body shears,
    the head tilts, a sign pops up, blinks out for four frames and comes back)."""
    hop_y = -30
    layers = [
        {"name": "shadow", "keyframes": [
            kf(0, 12, "shadow", pivot=(22, 5), alpha=0.6, ease=-1),
            kf(12, 12, "shadow", pivot=(22, 5), scale=(0.7, 0.7), alpha=0.35, ease=1),
            kf(24, 24, "shadow", pivot=(22, 5), alpha=0.6, tweened=False)]},
        {"name": "body", "keyframes": [
            kf(0, 12, "body", pivot=(18, 40), ease=-1, label="hop"),
            kf(12, 12, "body", loc=(0, hop_y), pivot=(18, 40), ease=1),
            kf(24, 12, "body", pivot=(18, 40), label="wave"),
            kf(36, 11, "body", skew=(0.15, 0), pivot=(18, 40), ease=0.5),
            kf(47, 1, "body", pivot=(18, 40))]},
        {"name": "head", "keyframes": [
            kf(0, 12, "head", loc=(0, -38), pivot=(16, 26), ease=-1),
            kf(12, 12, "head", loc=(0, -38 + hop_y), pivot=(16, 26), ease=1),
            kf(24, 12, "head", loc=(0, -38), pivot=(16, 26)),
            kf(36, 11, "head", loc=TILTED_NECK, skew=(TILT, TILT), pivot=(16, 26), ease=0.5),
            kf(47, 1, "head", loc=(0, -38), pivot=(16, 26))]},
        {"name": "eyes", "keyframes": [
            kf(0, 12, "blink", loc=(0, -51), ease=-1),
            kf(12, 12, "blink", loc=(0, -51 + hop_y), ease=1),
            kf(24, 12, "blink", loc=(0, -51)),
            kf(36, 11, "blink", loc=on_tilted_head(0, -13), skew=(TILT, TILT), ease=0.5),
            kf(47, 1, "blink", loc=(0, -51))]},
        {"name": "antenna", "keyframes": [
            kf(0, 12, "antenna", loc=(0, -63), ease=-1),
            kf(12, 12, "antenna", loc=(0, -63 + hop_y), ease=1),
            kf(24, 12, "antenna", loc=(0, -63)),
            kf(36, 11, "antenna", loc=on_tilted_head(0, -25), skew=(TILT, TILT), ease=0.5),
            kf(47, 1, "antenna", loc=(0, -63))]},
        {"name": "sign", "keyframes": [
            kf(0, 30),
            kf(30, 10, "sign", loc=(34, -22), skew=(-0.1, -0.1), pivot=(15, 16), tweened=False),
            kf(40, 4, "sign", loc=(34, -22), skew=(-0.1, -0.1), pivot=(15, 16), visible=False, tweened=False),
            kf(44, 4, "sign", loc=(34, -22), skew=(-0.1, -0.1), pivot=(15, 16), tweened=False)]},
    ]
    return {"id": "robot", "layers": layers}


def blink():
    """A flipbook: eyes open for 9 frames, closed for 3."""
    return {"id": "blink", "layers": [{"name": "flipbook", "flipbook": True, "keyframes": [
        kf(0, 9, "blink_flipbook_0", pivot=(10, 4), tweened=False),
        kf(9, 3, "blink_flipbook_9", pivot=(10, 4), tweened=False)]}]}


def antenna():
    """The antenna sways ±0.25 rad about its foot: out with a slow start, back with a fast start."""
    return {"id": "antenna", "layers": [{"name": "stick", "keyframes": [
        kf(0, 4, "antenna_stick", skew=(-0.25, -0.25), pivot=(4, 18), ease=1),
        kf(4, 4, "antenna_stick", skew=(0.25, 0.25), pivot=(4, 18), ease=-1),
        kf(8, 1, "antenna_stick", skew=(-0.25, -0.25), pivot=(4, 18))]}]}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Samples")
    folder = os.path.join(out, NAME)
    groups = [{"scaleFactor": s, "atlases": [make_atlas(folder, "atlas0.png" if s == 1 else "atlas0@%dx.png" % s, s)]}
              for s in (1, 2)]
    library = {"md5": "6b657966726d2d686f70626f742d3031", "frameRate": 24, "isNamespaced": False,
               "movies": [robot(), blink(), antenna()], "textureGroups": groups}
    write_json(os.path.join(folder, "library.json"), library)


if __name__ == "__main__":
    main()
