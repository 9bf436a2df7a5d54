#!/usr/bin/env python3
"""An independent computation of Flash's filters, in NumPy floating point, for FilterReferenceTests.

Written from the definitions (docs/raster.md, "Filters"; Flash's fl.motion.AdjustColor), not from Keyframe's code:

* blur: `quality` passes of a box `w` wide, centred on the pixel: every pixel weighs its overlap with [-w/2, w/2],
  divided by w (a box of at most 1 pixel changes nothing); rows first, then columns; outside the canvas is 0
  (1 for an inner glow's inverted alpha);
* glow / drop shadow: g = min(1, blur(alpha or 1 - alpha, moved by the offset) * strength) * alpha, in colour C;
  outer P + C g (1 - a); knockout C g (1 - a); hide object C g; inner C g a + P (1 - g); inner knockout C g a;
* adjust colour: the 4x5 matrix H.S.C.B of Flash's AdjustColor on straight colour, clamped to 0..255.

No intermediate rounding: the result is float32, premultiplied, 0..255.

usage: filter_reference.py SPEC.json OUT.raw
SPEC: {"width", "height", "picture": RAW path (premultiplied RGBA8, width x height), "filters": [
       {"kind": "blur"|"glow"|"dropShadow"|"adjustColor", ... Flash's parameters, blur sizes and offsets already in
        canvas pixels: "blurX", "blurY", "quality", "color": [r,g,b], "alpha", "strength", "inner", "knockout",
        "hideObject", "offsetX", "offsetY", "brightness", "contrast", "saturation", "hue"}]}
"""
import json
import math
import sys

import numpy as np


def box_kernel(w):
    if not w > 1:
        return np.array([1.0])
    r = (w - 1) / 2
    n = math.floor(r)
    f = r - n
    k = np.ones(2 * n + 3)
    k[0] = k[-1] = f
    return k / w


def convolve_axis(plane, kernel, axis, outside):
    half = len(kernel) // 2
    pad = [(0, 0), (0, 0)]
    pad[axis] = (half, half)
    padded = np.pad(plane, pad, mode="constant", constant_values=outside)
    out = np.zeros_like(plane)
    length = plane.shape[axis]
    for i, weight in enumerate(kernel):
        if weight == 0:
            continue
        if axis == 1:
            out += weight * padded[:, i:i + length]
        else:
            out += weight * padded[i:i + length, :]
    return out


def blur(plane, w, h, passes, outside=0.0):
    kx, ky = box_kernel(w), box_kernel(h)
    for _ in range(passes):
        plane = convolve_axis(plane, kx, 1, outside)
        plane = convolve_axis(plane, ky, 0, outside)
    return plane


def shift(plane, dx, dy, fill):
    out = np.full_like(plane, fill)
    height, width = plane.shape
    ys, yd = (0, dy) if dy >= 0 else (-dy, 0)
    xs, xd = (0, dx) if dx >= 0 else (-dx, 0)
    hh, ww = height - abs(dy), width - abs(dx)
    if hh > 0 and ww > 0:
        out[yd:yd + hh, xd:xd + ww] = plane[ys:ys + hh, xs:xs + ww]
    return out


def glow(picture, f):
    a = picture[:, :, 3] / 255.0
    inner = f.get("inner", False)
    plane = 1.0 - a if inner else a
    plane = blur(plane, f["blurX"], f["blurY"], f["quality"], 1.0 if inner else 0.0)
    plane = shift(plane, f.get("offsetX", 0), f.get("offsetY", 0), 1.0 if inner else 0.0)
    g = np.minimum(1.0, plane * f["strength"]) * f["alpha"]
    colour = np.array(list(f["color"]) + [255.0])
    effect = g[:, :, None] * colour[None, None, :]
    knockout, hide = f.get("knockout", False), f.get("hideObject", False)
    if inner:
        inside = effect * a[:, :, None]
        if knockout or hide:
            return inside
        out = inside + picture * (1 - g)[:, :, None]
        out[:, :, 3] = picture[:, :, 3]
        return out
    if knockout:
        return effect * (1 - a)[:, :, None]
    if hide:
        return effect
    return picture + effect * (1 - a)[:, :, None]


CONTRAST_STEPS = [
    0, 0.01, 0.02, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1, 0.11, 0.12, 0.14, 0.15, 0.16, 0.17, 0.18, 0.20, 0.21, 0.22,
    0.24, 0.25, 0.27, 0.28, 0.30, 0.32, 0.34, 0.36, 0.38, 0.40, 0.42, 0.44, 0.46, 0.48, 0.5, 0.53, 0.56, 0.59, 0.62,
    0.65, 0.68, 0.71, 0.74, 0.77, 0.80, 0.83, 0.86, 0.89, 0.92, 0.95, 0.98, 1.0, 1.06, 1.12, 1.18, 1.24, 1.30,
    1.36, 1.42, 1.48, 1.54, 1.60, 1.66, 1.72, 1.78, 1.84, 1.90, 1.96, 2.0, 2.12, 2.25, 2.37, 2.50, 2.62, 2.75,
    2.87, 3.0, 3.2, 3.4, 3.6, 3.8, 4.0, 4.3, 4.7, 4.9, 5.0, 5.5, 6.0, 6.5, 6.8, 7.0, 7.3, 7.5, 7.8, 8.0, 8.4, 8.7,
    9.0, 9.4, 9.6, 9.8, 10.0]


def adjust_color_matrix(brightness, contrast, saturation, hue):
    clamp = lambda v, lo, hi: min(max(v, lo), hi)
    b, c = clamp(brightness, -100, 100), clamp(contrast, -100, 100)
    s, h = clamp(saturation, -100, 100), clamp(hue, -180, 180)
    B = np.eye(5)
    B[0:3, 4] = b
    x = 127.0
    if c > 0:
        x = CONTRAST_STEPS[int(c)] * 127 + 127
    elif c < 0:
        x = c / 100 * 127 + 127
    C = np.eye(5)
    C[0:3, 0:3] *= x / 127
    C[0:3, 4] = 0.5 * (127 - x)
    sv = 1 + 3 * s / 100 if s > 0 else 1 + s / 100
    lum = np.array([0.3086, 0.6094, 0.0820])
    S = np.eye(5)
    S[0:3, 0:3] = np.outer(np.ones(3), lum) * (1 - sv) + np.eye(3) * sv
    H = np.eye(5)
    if h != 0:
        t = h * math.pi / 180
        lr, lg, lb = 0.213, 0.715, 0.072
        base = np.array([[lr, lg, lb]] * 3)
        cos_part = np.array([[1 - lr, -lg, -lb], [-lr, 1 - lg, -lb], [-lr, -lg, 1 - lb]])
        sin_part = np.array([[-lr, -lg, 1 - lb], [0.143, 0.140, -0.283], [-(1 - lr), lg, lb]])
        H[0:3, 0:3] = base + math.cos(t) * cos_part + math.sin(t) * sin_part
    return (H @ S @ C @ B)[0:4, :]


def adjust_color(picture, f):
    m = adjust_color_matrix(f["brightness"], f["contrast"], f["saturation"], f["hue"])
    a = picture[:, :, 3]
    safe = np.where(a > 0, a, 1)
    straight = np.where(a[:, :, None] > 0, picture[:, :, 0:3] * 255 / safe[:, :, None], 0)
    rgba1 = np.concatenate([straight, a[:, :, None], np.ones_like(a)[:, :, None]], axis=2)
    out = np.clip(rgba1 @ m.T, 0, 255)
    out[:, :, 0:3] *= out[:, :, 3:4] / 255
    return out


def main():
    spec = json.load(open(sys.argv[1]))
    w, h = spec["width"], spec["height"]
    picture = np.frombuffer(open(spec["picture"], "rb").read(), dtype=np.uint8).reshape(h, w, 4).astype(np.float64)
    for f in spec["filters"]:
        if f["kind"] == "blur":
            channels = [blur(picture[:, :, c], f["blurX"], f["blurY"], f["quality"]) for c in range(4)]
            picture = np.stack(channels, axis=2)
        elif f["kind"] in ("glow", "dropShadow"):
            picture = glow(picture, f)
        elif f["kind"] == "adjustColor":
            picture = adjust_color(picture, f)
        else:
            raise SystemExit("unknown filter kind " + f["kind"])
    open(sys.argv[2], "wb").write(picture.astype(np.float32).tobytes())


if __name__ == "__main__":
    main()
