#!/usr/bin/env python3
"""Writes the bundled DragonBones sample Samples/dragonbones-waver/ (authored here, deterministic).

    python3 Scripts/make-dragonbones-sample.py

A small figure in DragonBones 5.5 JSON: bones with setup transforms, an arm bent by a two-bone IK constraint, a
flag drawn as a weighted (skinned) mesh with a deform timeline, an eye that switches displays, a colour flash and a
z-order change; two animations ("idle" loops, "wave" plays once). The atlas PNG is drawn here with zlib/struct.
"""
import json
import os
import struct
import zlib

NAME = "waver"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Samples", "dragonbones-" + NAME)

# Atlas layout: name -> (x, y, width, height, colour RGBA)
TEXTURES = [
    ("body", 0, 0, 24, 32, (60, 110, 200, 255)),
    ("head", 26, 0, 20, 20, (240, 200, 80, 255)),
    ("arm_upper", 48, 0, 14, 6, (200, 70, 60, 255)),
    ("arm_lower", 48, 8, 12, 6, (220, 90, 70, 255)),
    ("flag", 64, 0, 32, 16, (70, 170, 90, 255)),
    ("eye_open", 26, 22, 4, 4, (20, 20, 20, 255)),
    ("eye_closed", 32, 22, 4, 2, (20, 20, 20, 255)),
]
ATLAS_W, ATLAS_H = 128, 64


def png(width, height, pixels):
    """An RGBA PNG from rows of (r, g, b, a) tuples."""
    raw = b"".join(b"\x00" + b"".join(struct.pack("4B", *p) for p in row) for row in pixels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def atlas_pixels():
    pixels = [[(0, 0, 0, 0)] * ATLAS_W for _ in range(ATLAS_H)]
    for name, x, y, w, h, colour in TEXTURES:
        for j in range(h):
            for i in range(w):
                edge = i == 0 or j == 0 or i == w - 1 or j == h - 1
                r, g, b, a = colour
                # A darker outline and a diagonal stripe make orientation visible in renders.
                if edge or (i + j) % 7 == 0:
                    r, g, b = r * 3 // 5, g * 3 // 5, b * 3 // 5
                pixels[y + j][x + i] = (r, g, b, a)
    return pixels


def skeleton():
    bones = [
        {"name": "root"},
        {"name": "body", "parent": "root", "length": 30, "transform": {"y": -20, "skX": -90, "skY": -90}},
        {"name": "head", "parent": "body", "length": 18, "transform": {"x": 32}},
        {"name": "arm_upper", "parent": "body", "length": 14, "transform": {"x": 26, "y": 10, "skX": 120, "skY": 120}},
        {"name": "arm_lower", "parent": "arm_upper", "length": 12, "transform": {"x": 14, "skX": -30, "skY": -30}},
        {"name": "flag_a", "parent": "arm_lower", "length": 16, "transform": {"x": 12, "skX": -60, "skY": -60}},
        {"name": "flag_b", "parent": "flag_a", "length": 16, "transform": {"x": 16}},
        {"name": "hand_target", "parent": "root", "transform": {"x": 30, "y": -40}},
    ]
    slots = [
        {"name": "flag", "parent": "flag_a"},
        {"name": "arm_upper", "parent": "arm_upper"},
        {"name": "body", "parent": "body"},
        {"name": "arm_lower", "parent": "arm_lower"},
        {"name": "head", "parent": "head"},
        {"name": "eye", "parent": "head", "displayIndex": 0},
    ]
    # Flag mesh: a 4 × 2 grid over the flag texture, in slot space at bind time (slot pose = flag_a's bind pose).
    columns, rows = 4, 2
    vertices, uvs = [], []
    for j in range(rows):
        for i in range(columns):
            u, v = i / (columns - 1), j / (rows - 1)
            uvs += [u, v]
            vertices += [round(u * 32, 4), round(v * 16 - 8, 4)]
    triangles = []
    for j in range(rows - 1):
        for i in range(columns - 1):
            a = j * columns + i
            triangles += [a, a + 1, a + columns, a + 1, a + columns + 1, a + columns]
    # Bind poses: flag_a at the origin, flag_b 16 px along x. The vertices are given in that bind space, so each
    # vertex keeps its offset from its bones and the flag follows them wherever the arm puts them.
    bone_index = {b["name"]: k for k, b in enumerate(bones)}
    weights = []
    for j in range(rows):
        for i in range(columns):
            w_b = i / (columns - 1)
            weights += [2, bone_index["flag_a"], round(1 - w_b, 4), bone_index["flag_b"], round(w_b, 4)]
    bone_pose = [bone_index["flag_a"], 1, 0, 0, 1, 0, 0, bone_index["flag_b"], 1, 0, 0, 1, 16, 0]
    skin_slots = [
        {"name": "flag", "display": [{"name": "flag", "type": "mesh", "vertices": vertices, "uvs": uvs,
                                      "triangles": triangles, "weights": weights,
                                      "slotPose": [1, 0, 0, 1, 0, 0], "bonePose": bone_pose}]},
        {"name": "arm_upper", "display": [{"name": "arm_upper", "transform": {"x": 7}}]},
        {"name": "body", "display": [{"name": "body", "transform": {"x": 15, "skX": 90, "skY": 90}}]},
        {"name": "arm_lower", "display": [{"name": "arm_lower", "transform": {"x": 6}}]},
        {"name": "head", "display": [{"name": "head", "transform": {"x": 9, "skX": 90, "skY": 90}}]},
        {"name": "eye", "display": [{"name": "eye_open", "transform": {"x": 10, "y": 4}},
                                    {"name": "eye_closed", "transform": {"x": 10, "y": 4}}]},
    ]
    idle = {
        "name": "idle", "duration": 24, "playTimes": 0,
        "bone": [
            {"name": "body", "translateFrame": [
                {"duration": 12, "curve": [0.25, 0, 0.75, 1], "y": 0},
                {"duration": 12, "curve": [0.25, 0, 0.75, 1], "y": -3},
                {"duration": 0, "y": 0}]},
            {"name": "head", "rotateFrame": [
                {"duration": 8, "tweenEasing": 2, "rotate": 0},
                {"duration": 16, "tweenEasing": 2, "rotate": 10},
                {"duration": 0, "rotate": 0}]},
            {"name": "hand_target", "translateFrame": [
                {"duration": 12, "tweenEasing": 0, "x": 0, "y": 0},
                {"duration": 12, "tweenEasing": 0, "x": 2, "y": 4},
                {"duration": 0, "x": 0, "y": 0}]},
        ],
        "slot": [
            {"name": "eye", "displayFrame": [{"duration": 20, "value": 0}, {"duration": 2, "value": 1},
                                             {"duration": 2, "value": 0}]},
        ],
    }
    wave = {
        "name": "wave", "duration": 16, "playTimes": 1,
        "bone": [
            {"name": "hand_target", "translateFrame": [
                {"duration": 4, "tweenEasing": 0.5, "x": 0, "y": 0},
                {"duration": 4, "tweenEasing": -0.5, "x": 6, "y": -14},
                {"duration": 4, "tweenEasing": 0.5, "x": -4, "y": -10},
                {"duration": 4, "tweenEasing": 0, "x": 6, "y": -14},
                {"duration": 0, "x": 0, "y": 0}]},
            {"name": "flag_b", "rotateFrame": [
                {"duration": 8, "tweenEasing": 0, "rotate": 0, "clockwise": 1},
                {"duration": 8, "tweenEasing": 0, "rotate": 20},
                {"duration": 0, "rotate": 0}]},
        ],
        "slot": [
            {"name": "head", "colorFrame": [
                {"duration": 6, "tweenEasing": 0},
                {"duration": 10, "tweenEasing": 0, "value": {"rM": 100, "gM": 60, "bM": 60, "rO": 40}},
                {"duration": 0}]},
        ],
        "ffd": [
            {"name": "flag", "slot": "flag", "skin": "", "frame": [
                {"duration": 8, "tweenEasing": 0},
                {"duration": 8, "tweenEasing": 0, "offset": 2, "vertices": [0, -3, 0, 3, 0, -2, 0, 0, 0, 2, 0, -3]},
                {"duration": 0}]},
        ],
        "zOrder": {"frame": [{"duration": 8, "zOrder": []}, {"duration": 8, "zOrder": [1, 2]}]},
    }
    return {
        "frameRate": 24, "name": NAME, "version": "5.5", "compatibleVersion": "5.5",
        "armature": [{
            "type": "Armature", "frameRate": 24, "name": NAME, "bone": bones, "slot": slots,
            "ik": [{"name": "arm_ik", "bone": "arm_lower", "target": "hand_target", "chain": 1, "bendPositive": True}],
            "skin": [{"name": "", "slot": skin_slots}],
            "animation": [idle, wave],
            "defaultActions": [{"gotoAndPlay": "idle"}],
        }],
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, NAME + "_ske.json"), "w") as f:
        json.dump(skeleton(), f, indent=1, sort_keys=True)
        f.write("\n")
    atlas = {"name": NAME, "imagePath": NAME + "_tex.png", "width": ATLAS_W, "height": ATLAS_H,
             "SubTexture": [{"name": n, "x": x, "y": y, "width": w, "height": h} for n, x, y, w, h, _ in TEXTURES]}
    with open(os.path.join(OUT, NAME + "_tex.json"), "w") as f:
        json.dump(atlas, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(OUT, NAME + "_tex.png"), "wb") as f:
        f.write(png(ATLAS_W, ATLAS_H, atlas_pixels()))
    print("wrote", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
