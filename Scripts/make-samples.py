#!/usr/bin/env python3
"""Generates Keyframe's bundled samples under Samples/: small original characters written as real
Adobe Animate texture-atlas exports (see docs and /work/shared/reference/formats.md §1-2).

    python3 Scripts/make-samples.py            # writes Samples/<sample>/...
    python3 Scripts/make-samples.py OUT_DIR    # writes OUT_DIR/<sample>/... instead

Everything here is drawn and animated by this script (no third-party art). Output is deterministic: the same
script writes the same bytes. Python 3 standard library only (zlib + struct for the PNGs).

Samples
  animate-walker        optimized (short-key) official export, 24 fps, nested graphics (LP/PO/SF), a movie clip,
                        baked walk cycle, labels "walk"/"wave", Tint + Advanced colour, one rotated atlas sprite,
                        spritemap with a UTF-8 BOM.
  animate-bouncer-long  long-key official export (ANIMATION/SYMBOL_DICTIONARY, Matrix3D objects), 30 fps, bouncing
                        ball with an Alpha effect and a mask layer (Clipper + Clipped_by).
  bta-spinner           BetterTextureAtlas 1.2.0 export: metadata.json, LIBRARY/ split symbols (in a folder), MX
                        matrices, an un-baked classic tween (TWN with CV custom ease, RT clockwise, RTT 1).
  animate-glow          optimized official export, 24 fps, every filter kind Animate writes in the "F" object:
                        glows (outer with pulsing strength, knockout, inner inside a glowing symbol), drop
                        shadows (outer, inner, hide object), a growing motion blur, adjust colour cycling the hue, a
                        blur + adjust colour pair, a frame-level filter, a bevel (kept, not drawn), and a stage
                        instance (AN.STI) that places the symbol on the stage.
  animate-blend         optimized official export, one frame: every Flash blend mode ("B" on symbol instances) over
                        a colourful, partly transparent backdrop, one cell each; the blended symbol holds two
                        overlapping sprites (so it blends as one picture); "layer" with a 50% alpha effect; "alpha"
                        and "erase" inside a "layer" symbol; and "erase" with no layer around it (not drawn).
"""
import json
import math
import os
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------------------------------------------------------
# Pixels: a tiny supersampled painter and a PNG writer.


def hex_rgb(text):
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


class Canvas:
    """RGBA canvas, premultiplied floats 0...1 while painting; 4x4 supersampled coverage per shape."""

    SS = 4

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.px = [[0.0, 0.0, 0.0, 0.0] for _ in range(width * height)]

    def fill(self, inside, color, alpha=1.0, bounds=None):
        """Paints colour over every pixel in proportion to the share of its subsamples for which inside(x, y)."""
        r, g, b = (c / 255.0 for c in hex_rgb(color))
        x0, y0, x1, y1 = bounds or (0, 0, self.width, self.height)
        x0, y0 = max(0, int(math.floor(x0))), max(0, int(math.floor(y0)))
        x1, y1 = min(self.width, int(math.ceil(x1))), min(self.height, int(math.ceil(y1)))
        n = self.SS
        for y in range(y0, y1):
            for x in range(x0, x1):
                hits = 0
                for sy in range(n):
                    for sx in range(n):
                        if inside(x + (sx + 0.5) / n, y + (sy + 0.5) / n):
                            hits += 1
                if hits == 0:
                    continue
                a = alpha * hits / (n * n)
                p = self.px[y * self.width + x]
                p[0] = r * a + p[0] * (1 - a)
                p[1] = g * a + p[1] * (1 - a)
                p[2] = b * a + p[2] * (1 - a)
                p[3] = a + p[3] * (1 - a)

    def ellipse(self, cx, cy, rx, ry, color, alpha=1.0):
        self.fill(lambda x, y: ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0, color, alpha,
                  (cx - rx - 1, cy - ry - 1, cx + rx + 1, cy + ry + 1))

    def round_rect(self, x0, y0, x1, y1, radius, color, alpha=1.0):
        def inside(x, y):
            if x < x0 or x > x1 or y < y0 or y > y1:
                return False
            qx = min(max(x, x0 + radius), x1 - radius)
            qy = min(max(y, y0 + radius), y1 - radius)
            return (x - qx) ** 2 + (y - qy) ** 2 <= radius * radius
        self.fill(inside, color, alpha, (x0 - 1, y0 - 1, x1 + 1, y1 + 1))

    def outlined_ellipse(self, cx, cy, rx, ry, fill, outline, width=2.0):
        self.ellipse(cx, cy, rx, ry, outline)
        self.ellipse(cx, cy, rx - width, ry - width, fill)

    def outlined_round_rect(self, x0, y0, x1, y1, radius, fill, outline, width=2.0):
        self.round_rect(x0, y0, x1, y1, radius, outline)
        self.round_rect(x0 + width, y0 + width, x1 - width, y1 - width, max(radius - width, 0.0), fill)

    def rgba(self, x, y):
        """Straight-alpha 8-bit pixel."""
        r, g, b, a = self.px[y * self.width + x]
        if a <= 0.0:
            return (0, 0, 0, 0)
        return (int(round(r / a * 255)), int(round(g / a * 255)), int(round(b / a * 255)), int(round(a * 255)))


def write_png(path, width, height, pixels):
    """pixels[y][x] = (r, g, b, a). 8-bit RGBA, filter 0, zlib level 9."""
    raw = bytearray()
    for row in pixels:
        raw.append(0)
        for p in row:
            raw.extend(p)

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    data = (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))
    write_bytes(path, data)


class Atlas:
    """Places upright sprite canvases into one image; a rotated sprite is stored turned 90° clockwise, so that
    upright pixel (u, v) = atlas pixel (x + w - 1 - v, y + u) with w the stored width (formats.md §1.7)."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.pixels = [[(0, 0, 0, 0)] * width for _ in range(height)]
        self.sprites = []

    def place(self, name, canvas, x, y, rotated=False):
        if rotated:
            w, h = canvas.height, canvas.width  # stored size
            for v in range(canvas.height):
                for u in range(canvas.width):
                    self.pixels[y + u][x + w - 1 - v] = canvas.rgba(u, v)
        else:
            w, h = canvas.width, canvas.height
            for v in range(h):
                for u in range(w):
                    self.pixels[y + v][x + u] = canvas.rgba(u, v)
        assert x + w <= self.width and y + h <= self.height, name
        for other in self.sprites:
            ox, oy, ow, oh = other[1:5]
            assert x + w <= ox or ox + ow <= x or y + h <= oy or oy + oh <= y, (name, other[0])
        self.sprites.append((name, x, y, w, h, rotated))

    def write(self, folder, image, json_name, app, version, bom):
        write_png(os.path.join(folder, image), self.width, self.height, self.pixels)
        # The textual layout of Animate's spritemap writer (one sprite a line, "resolution" as a string).
        lines = ['{"ATLAS": {"SPRITES":[ ']
        entries = ['{"SPRITE" : {"name": "%s","x":%d,"y":%d,"w":%d,"h":%d,"rotated": %s}}'
                   % (n, x, y, w, h, "true" if r else "false") for (n, x, y, w, h, r) in self.sprites]
        lines.append(",\n".join(entries))
        lines.append("]},")
        lines.append('"meta": {')
        lines.append('"app": "%s",' % app)
        lines.append('"version": "%s",' % version)
        lines.append('"image": "%s",' % image)
        lines.append('"format": "RGBA8888",')
        lines.append('"size": {"w":%d,"h":%d},' % (self.width, self.height))
        lines.append('"resolution": "1"')
        lines.append("}")
        lines.append("}")
        text = "\n".join(lines) + "\n"
        write_bytes(os.path.join(folder, json_name), (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))


# ---------------------------------------------------------------------------------------------------------------
# JSON and matrices.


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def dump(value, indent=0):
    """Compact JSON with one array-of-objects item a line, so diffs of the samples stay readable."""
    pad = "\n" + " " * (indent + 1)
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(v, indent) for k, v in value.items()) + "}"
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return "[" + pad + ("," + pad).join(dump(v, indent + 1) for v in value) + "\n" + " " * indent + "]"
        return "[" + ",".join(dump(v, indent + 1) for v in value) + "]"
    if isinstance(value, float):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=False)


def write_json(path, value):
    write_bytes(path, (dump(value) + "\n").encode("utf-8"))


def num(x, places=4):
    """A float rounded to `places` decimals, never -0.0."""
    return round(x, places) + 0.0


def identity():
    return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m, n):
    """m ∘ n: apply n first. Matrices are (a, b, c, d, tx, ty) with x' = a x + c y + tx, y' = b x + d y + ty."""
    a, b, c, d, tx, ty = m
    e, f, g, h, ux, uy = n
    return (a * e + c * f, b * e + d * f, a * g + c * h, b * g + d * h, a * ux + c * uy + tx, b * ux + d * uy + ty)


def T(x, y):
    return (1.0, 0.0, 0.0, 1.0, float(x), float(y))


def S(sx, sy):
    return (float(sx), 0.0, 0.0, float(sy), 0.0, 0.0)


def R(degrees):
    """Clockwise on screen (y down)."""
    t = math.radians(degrees)
    return (math.cos(t), math.sin(t), -math.sin(t), math.cos(t), 0.0, 0.0)


def chain(*ms):
    out = identity()
    for m in ms:
        out = mul(out, m)
    return out


def apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def clean(m):
    """Matrix parts to 4 decimals, translation to 2 (Animate stores positions in twentieths of a pixel)."""
    return (num(m[0]), num(m[1]), num(m[2]), num(m[3]), num(m[4], 2), num(m[5], 2))


def m3d_array(m):
    a, b, c, d, tx, ty = clean(m)
    return [a, b, 0.0, 0.0, c, d, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, tx, ty, 0.0, 1.0]


def m3d_object(m):
    a, b, c, d, tx, ty = clean(m)
    return {"m00": a, "m01": b, "m02": 0.0, "m03": 0.0, "m10": c, "m11": d, "m12": 0.0, "m13": 0.0,
            "m20": 0.0, "m21": 0.0, "m22": 1.0, "m23": 0.0, "m30": tx, "m31": ty, "m32": 0.0, "m33": 1.0}


def decomposed(m):
    a, b, c, d, tx, ty = clean(m)
    sx, sy = math.hypot(a, b), math.hypot(c, d)
    rz = math.degrees(math.atan2(b, a))
    return {"Position": {"x": tx, "y": ty, "z": 0.0}, "Rotation": {"x": 0.0, "y": 0.0, "z": num(rz)},
            "Scaling": {"x": num(sx), "y": num(sy), "z": 1.0}}


def mx(m):
    a, b, c, d, tx, ty = clean(m)
    return [a, b, c, d, tx, ty]


def point(x, y):
    return {"x": num(x, 2), "y": num(y, 2)}


# ---------------------------------------------------------------------------------------------------------------
# animate-walker: optimized official export.

INK = "#2B2030"


def walker_sprites():
    head = Canvas(44, 44)
    head.outlined_ellipse(22, 22, 21, 21, "#F2C9A0", INK)
    head.round_rect(6, 2, 38, 12, 5, "#6B3E26")          # hair
    head.ellipse(33, 31, 4, 2, "#B0505A")                # mouth (faces right)
    head.ellipse(2.5, 23, 3, 5, "#E8B890")               # ear at the back
    body = Canvas(40, 56)
    body.outlined_round_rect(1, 1, 39, 55, 8, "#3FA7A0", INK)
    body.round_rect(3, 38, 37, 44, 1, "#2B6F6A")         # belt
    body.ellipse(20, 41, 3, 3, "#E8C547")                # buckle
    legs = []
    for trousers in ("#34495E", "#22313F"):
        leg = Canvas(16, 40)
        leg.outlined_round_rect(1, 0, 15, 34, 5, trousers, INK)
        leg.outlined_round_rect(1, 30, 16, 40, 4, "#4A3426", INK)  # shoe, toe to the right
        legs.append(leg)
    arm = Canvas(12, 40)
    arm.outlined_round_rect(0, 0, 12, 28, 5, "#3FA7A0", INK)       # sleeve at the shoulder (top)
    arm.outlined_ellipse(6, 33, 6, 6, "#F2C9A0", INK)              # hand at the bottom
    eye_open = Canvas(8, 8)
    eye_open.outlined_ellipse(4, 4, 4, 4, "#FFFFFF", INK, 1.2)
    eye_open.ellipse(5, 4.5, 1.6, 1.6, INK)
    eye_closed = Canvas(8, 4)
    eye_closed.round_rect(0, 1, 8, 3, 1, INK)
    shadow = Canvas(48, 10)
    shadow.ellipse(24, 5, 24, 5, "#000000", 0.35)
    return head, body, legs[0], legs[1], arm, eye_open, eye_closed, shadow


def si(name, matrix, *, st="G", ff=None, lp=None, trp=None, inst="", color=None):
    """An optimized-key symbol instance element (movie clips omit FF/LP like real exports)."""
    body = {"SN": name, "IN": inst, "ST": st}
    if ff is not None:
        body["FF"] = ff
    if lp is not None:
        body["LP"] = lp
    if trp is not None:
        body["TRP"] = point(*trp)
    if color is not None:
        body["C"] = color
    body["M3D"] = m3d_array(matrix)
    return {"SI": body}


def asi(name, matrix):
    return {"ASI": {"N": name, "M3D": m3d_array(matrix)}}


def frame(index, duration, elements, label=None):
    out = {}
    if label is not None:
        out["N"] = label
    out.update({"I": index, "DU": duration, "E": elements})
    return out


WALK = 24          # frames of the walk cycle (two steps)
WAVE_ANGLES = [0, -40, -80, -120, -150, -135, -120, -135, -150, -135, -120, -135]


def leg_angle(f):
    return 25.0 * math.sin(2 * math.pi * f / WALK)


def bob(f):
    return -3.0 * abs(math.sin(math.pi * f / (WALK / 2)))


def make_walker(out):
    folder = os.path.join(out, "animate-walker")
    head, body, leg_front, leg_back, arm, eye_open, eye_closed, shadow = walker_sprites()
    atlas = Atlas(128, 80)
    atlas.place("0000", head, 2, 2)
    atlas.place("0001", body, 48, 2)
    atlas.place("0002", leg_front, 90, 2)
    atlas.place("0003", leg_back, 108, 2)
    atlas.place("0004", arm, 2, 60, rotated=True)       # stored 40×12, upright 12×40
    atlas.place("0005", eye_open, 90, 46)
    atlas.place("0006", eye_closed, 100, 46)
    atlas.place("0007", shadow, 44, 62)
    atlas.write(folder, "spritemap1.png", "spritemap1.json", "Adobe Animate", "21.0.7.42652", bom=True)

    # walker_eyes: 12 frames, open for 10, closed for 2.
    eyes = {"SN": "walker_eyes", "TL": {"L": [{"LN": "eyes", "FR": [
        frame(0, 10, [asi("0005", T(4, -30)), asi("0005", T(13, -30))]),
        frame(10, 2, [asi("0006", T(4, -28)), asi("0006", T(13, -28))]),
    ]}]}}
    # walker_head: 24 frames; the eyes loop inside it.
    head_symbol = {"SN": "walker_head", "TL": {"L": [
        {"LN": "eyes", "FR": [frame(0, WALK, [si("walker_eyes", identity(), ff=0, lp="LP", trp=(0, 0))])]},
        {"LN": "skull", "FR": [frame(0, WALK, [asi("0000", T(-22, -44))])]},
    ]}}
    # walker_legs: the baked walk cycle, hips at the origin, legs turning about the hip (sprite point (8, 4)).
    front, back = [], []
    for f in range(WALK):
        front.append(frame(f, 1, [asi("0002", chain(T(4, 0), R(leg_angle(f)), T(-8, -4)))]))
        back.append(frame(f, 1, [asi("0003", chain(T(-4, 0), R(-leg_angle(f)), T(-8, -4)))]))
    legs_symbol = {"SN": "walker_legs", "TL": {"L": [
        {"LN": "leg_front", "FR": front}, {"LN": "leg_back", "FR": back}]}}
    # walker_arm: frame 0 hangs; frames 1-11 raise the arm and wave (shoulder = sprite point (6, 4) at the origin).
    arm_symbol = {"SN": "walker_arm", "TL": {"L": [{"LN": "arm", "FR": [
        frame(i, 1, [asi("0004", chain(R(angle), T(-6, -4)))]) for i, angle in enumerate(WAVE_ANGLES)]}]}}
    # walker_shadow: a movie clip that breathes on its own clock.
    shadow_frames = [frame(f, 1, [asi("0007", chain(S(1.0 - 0.12 * abs(math.sin(math.pi * f / 12)), 1), T(-24, -5)))])
                     for f in range(12)]
    shadow_symbol = {"SN": "walker_shadow", "TL": {"L": [{"LN": "shadow", "FR": shadow_frames}]}}

    # The root timeline: 48 frames, "walk" then "wave".
    shoulder = (4, -84)
    arm_frames, head_frames, body_frames = [], [], []
    for f in range(WALK):
        swing = -18.0 * math.sin(2 * math.pi * f / WALK)
        arm_frames.append(frame(f, 1, [si("walker_arm", chain(T(*shoulder), R(swing)), ff=0, lp="SF", trp=shoulder)]))
        y = -86 + num(bob(f), 2)
        head_frames.append(frame(f, 1, [si("walker_head", T(2, y), ff=f, lp="LP", trp=(2, y))]))
        body_frames.append(frame(f, 1, [asi("0001", T(-20, -92 + num(bob(f), 2)))]))
    arm_frames.append(frame(WALK, WALK, [si("walker_arm", T(*shoulder), ff=0, lp="PO", trp=shoulder)]))
    blush = {"M": "T", "TC": "#FF7088", "TM": 0.3}
    head_frames.append(frame(WALK, WALK, [si("walker_head", T(2, -86), ff=0, lp="LP", trp=(2, -86), color=blush)]))
    body_frames.append(frame(WALK, WALK, [asi("0001", T(-20, -92))]))
    cool_shadow = {"M": "AD", "RM": 0.0, "GM": 0.0, "BM": 0.2, "AM": 0.6, "RO": 30, "GO": 20, "BO": 60, "AO": 0}
    root = {"L": [
        {"LN": "labels", "FR": [frame(0, WALK, [], label="walk"), frame(WALK, WALK, [], label="wave")]},
        {"LN": "arm", "FR": arm_frames},
        {"LN": "head", "FR": head_frames},
        {"LN": "body", "FR": body_frames},
        {"LN": "legs", "FR": [
            frame(0, WALK, [si("walker_legs", T(0, -40), ff=0, lp="LP", trp=(0, -40))]),
            frame(WALK, WALK, [si("walker_legs", T(0, -40), ff=0, lp="SF", trp=(0, -40))])]},
        {"LN": "shadow", "FR": [frame(0, 2 * WALK, [si("walker_shadow", identity(), st="MC", inst="shadow",
                                                       trp=(0, 0), color=cool_shadow)])]},
    ]}
    document = {
        "AN": {"N": "walker", "SN": "walker", "TL": root},
        "SD": {"S": [head_symbol, eyes, legs_symbol, arm_symbol, shadow_symbol]},
        "MD": {"FRT": 24.0},
    }
    write_json(os.path.join(folder, "Animation.json"), document)


# ---------------------------------------------------------------------------------------------------------------
# animate-bouncer-long: long-key official export with a mask and an Alpha effect.

BOUNCE = 30


def long_si(name, matrix, *, ff=0, lp="loop", trp=(0, 0), color=None):
    body = {"SYMBOL_name": name, "Instance_Name": "", "symbolType": "graphic", "firstFrame": ff, "loop": lp,
            "transformationPoint": point(*trp), "Matrix3D": m3d_object(matrix), "DecomposedMatrix": decomposed(matrix)}
    if color is not None:
        body["color"] = color
    return {"SYMBOL_Instance": body}


def long_asi(name, matrix):
    return {"ATLAS_SPRITE_instance": {"name": name, "Matrix3D": m3d_object(matrix),
                                      "DecomposedMatrix": decomposed(matrix)}}


def long_frame(index, duration, elements):
    return {"index": index, "duration": duration, "elements": elements}


def height(f):
    t = f / BOUNCE
    return 4 * t * (1 - t)


def squash(f):
    return {0: (1.25, 0.8), 1: (1.1, 0.92), BOUNCE - 1: (1.1, 0.92)}.get(f, (1.0, 1.0))


def make_bouncer(out):
    folder = os.path.join(out, "animate-bouncer-long")
    ball = Canvas(32, 32)
    ball.outlined_ellipse(16, 16, 16, 16, "#E4572E", INK)
    ball.ellipse(11, 10, 5, 4, "#FFFFFF", 0.7)
    shadow = Canvas(40, 8)
    shadow.ellipse(20, 4, 20, 4, "#000000", 1.0)
    window = Canvas(120, 90)
    window.round_rect(0, 0, 120, 90, 12, "#FFFFFF")
    floor = Canvas(120, 12)
    floor.outlined_round_rect(0, 0, 120, 12, 3, "#8FBF5A", INK)
    atlas = Atlas(128, 152)
    atlas.place("0000", window, 2, 2)
    atlas.place("0001", ball, 2, 94)
    atlas.place("0002", shadow, 36, 94)
    atlas.place("0003", floor, 2, 128)
    atlas.write(folder, "spritemap1.png", "spritemap1.json", "Adobe Animate", "23.0.0.407", bom=True)

    ball_frames, shadow_frames = [], []
    for f in range(BOUNCE):
        h = height(f)
        sx, sy = squash(f)
        ground = num(-64 * h, 2)                       # where the ball's bottom is
        m = chain(T(0, ground), S(sx, sy), T(0, -16))  # squash about the bottom of the ball
        ball_frames.append(long_frame(f, 1, [long_si("ball", m, trp=apply(m, 0, 0))]))
        s = 1 - 0.5 * h
        alpha = {"mode": "Alpha", "alphaMultiplier": num(0.8 - 0.55 * h, 2)}
        shadow_frames.append(long_frame(f, 1, [long_si("shadow", S(s, s), color=alpha)]))
    root = {"LAYERS": [
        {"Layer_name": "window", "Layer_type": "Clipper",
         "Frames": [long_frame(0, BOUNCE, [long_asi("0000", T(-60, -80))])]},
        {"Layer_name": "ball", "Clipped_by": "window", "Frames": ball_frames},
        {"Layer_name": "shadow", "Clipped_by": "window", "Frames": shadow_frames},
        {"Layer_name": "floor", "Frames": [long_frame(0, BOUNCE, [long_asi("0003", T(-60, 4))])]},
    ]}
    symbols = [
        {"SYMBOL_name": "ball", "TIMELINE": {"LAYERS": [
            {"Layer_name": "Layer_1", "Frames": [long_frame(0, 1, [long_asi("0001", T(-16, -16))])]}]}},
        {"SYMBOL_name": "shadow", "TIMELINE": {"LAYERS": [
            {"Layer_name": "Layer_1", "Frames": [long_frame(0, 1, [long_asi("0002", T(-20, -4))])]}]}},
    ]
    document = {
        "ANIMATION": {"name": "bouncer", "SYMBOL_name": "bouncer", "TIMELINE": root},
        "SYMBOL_DICTIONARY": {"Symbols": symbols},
        "metadata": {"framerate": 30.0},
    }
    write_json(os.path.join(folder, "Animation.json"), document)


# ---------------------------------------------------------------------------------------------------------------
# bta-spinner: BetterTextureAtlas 1.2.0 with a LIBRARY/ split and an un-baked classic tween.


def bta_si(name, matrix, trp):
    return {"SI": {"SN": name, "IN": "", "ST": "G", "FF": 0, "LP": "LP", "TRP": point(*trp), "MX": mx(matrix)}}


def make_spinner(out):
    folder = os.path.join(out, "bta-spinner")
    wheel = Canvas(64, 64)
    wheel.outlined_ellipse(32, 32, 31, 31, "#F5E6B3", INK)
    colors = ["#E4572E", "#3FA7A0", "#E8C547", "#6C5B9E"]
    for i, color in enumerate(colors):       # four blades, each a different colour so turns are visible
        angle = math.radians(90 * i)
        cx, cy = 32 + 15 * math.cos(angle), 32 + 15 * math.sin(angle)
        wheel.ellipse(cx, cy, 9, 9, color)
    hub = Canvas(16, 16)
    hub.outlined_ellipse(8, 8, 8, 8, "#9A9A9A", INK)
    stand = Canvas(16, 60)
    stand.outlined_round_rect(2, 0, 14, 60, 3, "#7A5C3E", INK)
    atlas = Atlas(96, 80)
    atlas.place("0", wheel, 2, 2)
    atlas.place("1", hub, 68, 2)
    atlas.place("2", stand, 68, 20)
    atlas.write(folder, "spritemap1.png", "spritemap1.json", "Adobe Animate (Better TA Extension)", "23.0.0.407",
                bom=False)

    write_bytes(os.path.join(folder, "metadata.json"), (
        '{\n"version":"BTA 1.2.0",\n"name":"spinner",\n"backgroundColor":"#FFFFFF",\n"width":160,\n"height":160,\n'
        '"asVersion":3,\n"framerate":24\n}\n').encode("utf-8"))

    # LIBRARY/parts/hub.json and LIBRARY/parts/wheel.json: each file's root is the symbol's timeline.
    write_json(os.path.join(folder, "LIBRARY", "parts", "hub.json"), {"L": [
        {"LN": "Layer_1", "FR": [{"I": 0, "DU": 1, "E": [{"ASI": {"N": "1", "MX": [1, 0, 0, 1, 0, 0]}}]}]}]})
    write_json(os.path.join(folder, "LIBRARY", "parts", "wheel.json"), {"L": [
        {"LN": "hub", "FR": [{"I": 0, "DU": 1, "E": [
            {"SI": {"SN": "parts/hub", "IN": "", "ST": "G", "FF": 0, "LP": "SF", "TRP": point(8, 8),
                    "MX": [1, 0, 0, 1, 24, 24]}}]}]},
        {"LN": "blades", "FR": [{"I": 0, "DU": 1, "E": [{"ASI": {"N": "0", "MX": [1, 0, 0, 1, 0, 0]}}]}]},
    ]})

    # The root: the wheel turns 90° + one extra clockwise turn (450°) from frame 0 to 16 with a custom ease,
    # growing a little, then holds for 8 frames. BTA 1.2 writes TRP in the instance's own space (its centre).
    centre = (32, 32)
    start = chain(T(48, 24))
    end = chain(T(48, 24), T(*centre), R(90), S(1.2, 1.2), T(-centre[0], -centre[1]))
    tween = {"CV": [{"x": 0, "y": 0}, {"x": 0.2, "y": 0}, {"x": 0.3, "y": 0.6}, {"x": 0.5, "y": 0.6},
                    {"x": 0.7, "y": 0.6}, {"x": 0.8, "y": 1}, {"x": 1, "y": 1}],
             "TP": "motion", "RT": "clockwise", "RTT": 1, "SL": True, "SP": True, "SC": False}
    first = {"I": 0, "DU": 16, "TWN": tween, "E": [bta_si("parts/wheel", start, centre)]}
    second = {"I": 16, "DU": 8, "E": [bta_si("parts/wheel", end, centre)]}
    root = {"L": [
        {"LN": "wheel", "FR": [first, second]},
        {"LN": "stand", "FR": [{"I": 0, "DU": 24, "E": [{"ASI": {"N": "2", "MX": mx(T(72, 80))}}]}]},
    ]}
    write_json(os.path.join(folder, "Animation.json"), {"AN": {"N": "spinner", "SN": "spinner", "TL": root}})


# ---------------------------------------------------------------------------------------------------------------
# animate-glow: optimized official export with every filter kind.

GLOW = 24


def glow_filter(blur, color, alpha, strength, quality=3, inner=False, knockout=False):
    return {"BLX": num(blur, 2), "BLY": num(blur, 2), "C": color, "A": alpha, "Q": quality, "STR": num(strength, 2),
            "KK": knockout, "IN": inner}


def shadow_filter(distance, angle, blur, color, alpha, strength=1.0, quality=2, inner=False, knockout=False,
                  hide=False):
    return {"DST": distance, "AL": angle, "C": color, "A": alpha, "BLX": blur, "BLY": blur, "STR": strength,
            "Q": quality, "IN": inner, "KK": knockout, "HO": hide}


def filtered_si(name, matrix, filters, trp=(0, 0), ff=0, lp="LP"):
    element = si(name, matrix, ff=ff, lp=lp, trp=trp)
    element["SI"]["F"] = filters
    return element


def make_glow(out):
    folder = os.path.join(out, "animate-glow")
    lamp = Canvas(28, 28)
    lamp.outlined_ellipse(14, 14, 13, 13, "#FFE08A", "#C98B1E", 2.5)
    box = Canvas(36, 28)
    box.outlined_round_rect(1, 1, 35, 27, 6, "#5FC9BF", INK)
    box.round_rect(8, 9, 28, 13, 2, "#F5F0E6")
    cloud = Canvas(48, 24)
    for (cx, cy, r) in ((14, 14, 9), (24, 10, 9), (34, 14, 9), (24, 16, 8)):
        cloud.ellipse(cx, cy, r, r, "#F4F7FF")
    flower = Canvas(32, 32)
    for i, colour in enumerate(("#E4572E", "#3FA7A0", "#E8C547", "#6C5B9E")):
        t = math.radians(90 * i + 45)
        flower.ellipse(16 + 8 * math.cos(t), 16 + 8 * math.sin(t), 7, 7, colour)
    flower.outlined_ellipse(16, 16, 5, 5, "#FFFFFF", INK, 1.2)
    bar = Canvas(40, 12)
    bar.outlined_round_rect(0, 0, 40, 12, 5, "#8E6CC4", INK)
    atlas = Atlas(128, 96)
    atlas.place("0000", lamp, 2, 2)
    atlas.place("0001", box, 32, 2)
    atlas.place("0002", cloud, 70, 2)
    atlas.place("0003", flower, 2, 34)
    atlas.place("0004", bar, 36, 34)
    atlas.write(folder, "spritemap1.png", "spritemap1.json", "Adobe Animate", "24.0.0.305", bom=False)

    def one(name, sprite, w, h):
        return {"SN": name, "TL": {"L": [{"LN": "art", "FR": [frame(0, 1, [asi(sprite, T(-w / 2, -h / 2))])]}]}}

    badge = {"SN": "badge", "TL": {"L": [
        {"LN": "lamp", "FR": [frame(0, 1, [filtered_si(
            "lamp", T(0, -14), {"GF": glow_filter(6, "#FF4F9A", 1.0, 2.0, inner=True)}, ff=0, lp="SF")])]},
        {"LN": "bar", "FR": [frame(0, 1, [asi("0004", T(-20, 4))])]},
    ]}}
    symbols = [one("lamp", "0000", 28, 28), one("box", "0001", 36, 28), one("cloud", "0002", 48, 24),
               one("flower", "0003", 32, 32), badge]

    layers = {name: [] for name in ("lamp", "knockout", "box", "inner", "hidden", "cloud", "flower", "pair",
                                    "badge", "bevel")}
    for f in range(GLOW):
        wave = math.sin(2 * math.pi * f / GLOW)
        layers["lamp"].append(frame(f, 1, [filtered_si(
            "lamp", T(40, 40), {"GF": glow_filter(14, "#FFD23F", 1.0, 1.6 + 0.8 * wave)}, ff=0, lp="SF")]))
        layers["knockout"].append(frame(f, 1, [filtered_si(
            "lamp", T(110, 40), {"GF": glow_filter(10, "#46E0FF", 1.0, 2.5, quality=2, knockout=True)},
            ff=0, lp="SF")]))
        layers["box"].append(frame(f, 1, [filtered_si(
            "box", T(180, num(40 - 4 * abs(wave), 2)), {"DSF": shadow_filter(num(4 + 6 * abs(wave), 2), 45, 6,
                                                                             "#000000", 0.6)}, ff=0, lp="SF")]))
        layers["inner"].append(frame(f, 1, [filtered_si(
            "box", T(250, 40), {"DSF": shadow_filter(5, 135, 5, "#1B3A6B", 0.9, 1.5, inner=True)}, ff=0, lp="SF")]))
        layers["hidden"].append(frame(f, 1, [filtered_si(
            "lamp", T(320, 40), {"DSF": shadow_filter(8, 60, 4, "#6C5B9E", 0.8, hide=True)}, ff=0, lp="SF")]))
        layers["cloud"].append(frame(f, 1, [filtered_si(
            "cloud", T(num(30 + 5 * f, 2), 110), {"BLF": {"BLX": num(1 + 0.75 * f, 2), "BLY": 2, "Q": 2}},
            ff=0, lp="SF")]))
        layers["flower"].append(frame(f, 1, [filtered_si(
            "flower", T(200, 110), {"ACF": {"BRT": 0, "CT": 20, "SAT": 30, "H": -180 + 15 * f}}, ff=0, lp="SF")]))
        layers["pair"].append(frame(f, 1, [filtered_si(
            "flower", T(260, 110), {"BLF": {"BLX": 3, "BLY": 3, "Q": 1},
                                    "ACF": {"BRT": -20, "CT": 0, "SAT": -60, "H": 0}}, ff=0, lp="SF")]))
    # A frame-level filter: the layer's frame glows, round a symbol whose lamp has an inner glow of its own.
    badge_frame = frame(0, GLOW, [si("badge", T(330, 110), ff=0, lp="SF", trp=(0, 0))])
    badge_frame["F"] = {"GF": glow_filter(8, "#FFFFFF", 0.9, 1.5, quality=2)}
    layers["badge"] = [badge_frame]
    bevel = {"DST": 3, "AL": 45, "HC": "#FFFFFF", "HA": 1, "SC": "#000000", "SA": 1, "BLX": 4, "BLY": 4,
             "STR": 1, "Q": 1, "TP": "inner", "KK": False}
    layers["bevel"] = [frame(0, GLOW, [filtered_si("box", T(400, 110), {"BF": bevel}, ff=0, lp="SF")])]
    root = {"L": [{"LN": name, "FR": layers[name]} for name in layers]}
    stage_instance = {"SI": {"SN": "glow", "IN": "", "ST": "G", "FF": 0, "LP": "LP", "TRP": point(210, 75),
                             "M3D": m3d_array(T(36, 24))}}
    document = {
        "AN": {"N": "glow", "SN": "glow", "TL": root, "STI": stage_instance},
        "SD": {"S": symbols},
        "MD": {"FRT": 24.0},
    }
    write_json(os.path.join(folder, "Animation.json"), document)


# ---------------------------------------------------------------------------------------------------------------
# animate-blend: every Flash blend mode, one cell each.

BLEND_MODES = ["normal", "add", "multiply", "screen", "lighten", "darken", "difference", "subtract", "invert",
               "overlay", "hardlight", "layer", "alpha", "erase", "erase-alone"]
BLEND_CELL = 72
BLEND_COLUMNS = 5


def hue_rgb(h):
    """A fully saturated colour for hue h in 0...1 (floats 0...1)."""
    h = (h % 1.0) * 6.0
    x = 1.0 - abs(h % 2.0 - 1.0)
    return [(1, x, 0), (x, 1, 0), (0, 1, x), (0, x, 1), (x, 0, 1), (1, 0, x)][int(h) % 6]


def paint_pixels(canvas, colour_at):
    """Sets every pixel of canvas to colour_at(x, y) = (r, g, b, a), straight floats 0...1."""
    for y in range(canvas.height):
        for x in range(canvas.width):
            r, g, b, a = colour_at(x, y)
            canvas.px[y * canvas.width + x] = [r * a, g * a, b * a, a]


def blend_sprites():
    # The backdrop: hues left to right, lighter at the top and darker at the bottom (both sides of 50% grey, for
    # overlay and hard light), opaque at the top fading to 30% at the bottom, with a transparent notch.
    back = Canvas(48, 48)

    def back_at(x, y):
        r, g, b = hue_rgb(x / 48.0)
        shade = 1.0 - y / 47.0
        mix = [c * (0.35 + 0.65 * shade) + 0.4 * shade * (1 - c) for c in (r, g, b)]
        alpha = 1.0 - 0.7 * y / 47.0
        if 30 <= x < 40 and 4 <= y < 14:
            alpha = 0.0
        return (mix[0], mix[1], mix[2], alpha)
    paint_pixels(back, back_at)
    # The blended picture: an ellipse whose hue turns round its centre, white in the middle, 55% opaque at its rim.
    ellipse = Canvas(40, 40)
    ellipse.fill(lambda x, y: ((x - 20) / 19.5) ** 2 + ((y - 20) / 19.5) ** 2 <= 1.0, "#FFFFFF", 1.0)
    coverage = [p[3] for p in ellipse.px]
    ellipse.px = [[0.0, 0.0, 0.0, 0.0] for _ in range(40 * 40)]

    def ellipse_at(x, y):
        dx, dy = x + 0.5 - 20, y + 0.5 - 20
        radius = min(1.0, math.hypot(dx, dy) / 20.0)
        r, g, b = hue_rgb(math.atan2(dy, dx) / (2 * math.pi))
        mix = [c * radius + (1 - radius) for c in (r, g, b)]
        return (mix[0], mix[1], mix[2], coverage[y * 40 + x] * (1.0 - 0.45 * radius))
    paint_pixels(ellipse, ellipse_at)
    # A square that overlaps the ellipse inside the blended symbol: dark teal, 80% opaque.
    square = Canvas(24, 24)
    square.round_rect(0, 0, 24, 24, 4, "#1F6F78", 0.8)
    # What "alpha" and "erase" cut: diagonal stripes, opaque.
    stripes = Canvas(48, 48)
    paint_pixels(stripes, lambda x, y: (0.95, 0.85, 0.2, 1.0) if (x + y) // 6 % 2 == 0 else (0.45, 0.15, 0.6, 1.0))
    return back, ellipse, square, stripes


def blended_si(name, x, y, mode, color=None):
    element = si(name, T(x, y), ff=0, lp="SF", color=color)
    if mode != "normal":
        element["SI"]["B"] = mode
    return element


def make_blend(out):
    folder = os.path.join(out, "animate-blend")
    back, ellipse, square, stripes = blend_sprites()
    atlas = Atlas(128, 96)
    atlas.place("0000", back, 0, 0)
    atlas.place("0001", ellipse, 50, 0)
    atlas.place("0002", square, 92, 0)
    atlas.place("0003", stripes, 0, 48)
    atlas.write(folder, "spritemap1.png", "spritemap1.json", "Adobe Animate", "24.0.0.305", bom=False)

    # The blended symbol: the square over the ellipse, drawn normally inside it.
    blob = {"SN": "blob", "TL": {"L": [
        {"LN": "square", "FR": [frame(0, 1, [asi("0002", T(20, 20))])]},
        {"LN": "ellipse", "FR": [frame(0, 1, [asi("0001", T(0, 0))])]},
    ]}}

    def cutout(name, mode):
        return {"SN": name, "TL": {"L": [
            {"LN": "cut", "FR": [frame(0, 1, [blended_si("blob", 10, 10, mode)])]},
            {"LN": "stripes", "FR": [frame(0, 1, [asi("0003", T(0, 0))])]},
        ]}}
    symbols = [blob, cutout("alpha_cut", "alpha"), cutout("erase_cut", "erase")]

    layers = []
    for index, mode in enumerate(BLEND_MODES):
        x = BLEND_CELL * (index % BLEND_COLUMNS)
        y = BLEND_CELL * (index // BLEND_COLUMNS)
        if mode in ("alpha", "erase"):
            top = blended_si(mode + "_cut", x + 12, y + 12, "layer")
        elif mode == "layer":
            top = blended_si("blob", x + 20, y + 20, "layer", color={"M": "CA", "AM": 0.5})
        elif mode == "erase-alone":
            top = blended_si("blob", x + 20, y + 20, "erase")
        else:
            top = blended_si("blob", x + 20, y + 20, mode)
        layers.append({"LN": mode, "FR": [frame(0, 1, [top])]})
        layers.append({"LN": mode + " backdrop", "FR": [frame(0, 1, [asi("0000", T(x + 4, y + 4))])]})
    document = {
        "AN": {"N": "blend", "SN": "blend", "TL": {"L": layers}},
        "SD": {"S": symbols},
        "MD": {"FRT": 24.0},
    }
    write_json(os.path.join(folder, "Animation.json"), document)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Samples")
    make_walker(out)
    make_bouncer(out)
    make_spinner(out)
    make_glow(out)
    make_blend(out)


if __name__ == "__main__":
    main()
