"""Cuts every frame out of a Keyframe sprite sheet with Pillow and compares it with `keyframe render`'s PNG.

Usage: read_sheet.py FORMAT SHEET_FOLDER RENDER_FOLDER. Reads the data files by the formats' public descriptions
(Sparrow XML, TexturePacker JSON hash/array, Phaser 3 multi-atlas), rebuilds each frame at its source size and
compares the RGBA bytes with RENDER_FOLDER/<clip>-NNNN.png. Exits 1 on the first difference.
"""
import json
import os
import plistlib
import re
import sys
import xml.etree.ElementTree as ET

from PIL import Image


def frames(fmt, folder):
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if fmt == "sparrow" and name.endswith(".xml"):
            root = ET.parse(path).getroot()
            for sub in root.iter("SubTexture"):
                a = {k: sub.get(k) for k in sub.keys()}
                w, h = int(a["width"]), int(a["height"])
                yield (a["name"], root.get("imagePath"), int(a["x"]), int(a["y"]), w, h, a.get("rotated") == "true",
                       -int(a.get("frameX", 0)), -int(a.get("frameY", 0)),
                       int(a.get("frameWidth", w)), int(a.get("frameHeight", h)))
        elif fmt == "godot" and name.endswith(".tres"):
            text = open(path).read()
            images = dict((i, p) for p, i in re.findall(r'\[ext_resource path="([^"]*)" type="Texture" id=(\d+)\]', text))
            textures = {}
            for i, atlas, region, margin in re.findall(
                    r'\[sub_resource type="AtlasTexture" id=(\d+)\]\natlas = ExtResource\( (\d+) \)\n'
                    r'region = Rect2\( ([-\d, ]+) \)\nmargin = Rect2\( ([-\d, ]+) \)', text):
                textures[i] = (images[atlas], [int(v) for v in region.split(",")], [int(v) for v in margin.split(",")])
            for ids, clip in re.findall(r'"frames": \[ ([^\]]*) \],\n"loop": true,\n"name": "([^"]*)"', text):
                for index, i in enumerate(re.findall(r"SubResource\( (\d+) \)", ids)):
                    image, (x, y, w, h), (mx, my, mw, mh) = textures[i]
                    yield ("%s%04d" % (clip, index), image, x, y, w, h, False, mx, my, w + mw, h + mh)
        elif fmt == "cocos2d" and name.endswith(".plist"):
            data = plistlib.load(open(path, "rb"))
            image = data["metadata"]["textureFileName"]
            for key, f in sorted(data["frames"].items()):
                x, y, w, h = [int(v) for v in re.findall(r"-?[\d.]+", f["frame"])]
                ox, oy = [float(v) for v in re.findall(r"-?[\d.]+", f["offset"])]
                sw, sh = [int(v) for v in re.findall(r"-?[\d.]+", f["sourceSize"])]
                yield (key, image, x, y, w, h, f["rotated"], int((sw - w) / 2 + ox), int((sh - h) / 2 - oy), sw, sh)
        elif fmt not in ("sparrow", "godot", "cocos2d") and name.endswith(".json"):
            data = json.load(open(path))
            if "textures" in data:
                groups = [(t["image"], t["frames"]) for t in data["textures"]]
            elif isinstance(data["frames"], dict):
                groups = [(data["meta"]["image"], [dict(v, filename=k) for k, v in data["frames"].items()])]
            else:
                groups = [(data["meta"]["image"], data["frames"])]
            for image, entries in groups:
                for e in entries:
                    f, s, src = e["frame"], e["spriteSourceSize"], e["sourceSize"]
                    yield (e["filename"], image, f["x"], f["y"], f["w"], f["h"], e["rotated"], s["x"], s["y"],
                           src["w"], src["h"])


def main():
    fmt, folder, render = sys.argv[1:4]
    pages, count = {}, 0
    for name, image, x, y, w, h, rotated, ox, oy, sw, sh in frames(fmt, folder):
        if image not in pages:
            pages[image] = Image.open(os.path.join(folder, image)).convert("RGBA")
        page = pages[image]
        if rotated:
            # Stored a quarter turn clockwise: turn it back (Pillow turns counter-clockwise).
            piece = page.crop((x, y, x + h, y + w)).rotate(90, expand=True)
        else:
            piece = page.crop((x, y, x + w, y + h))
        frame = Image.new("RGBA", (sw, sh), (0, 0, 0, 0))
        frame.paste(piece, (ox, oy))
        match = re.fullmatch(r"(.*?)(\d{4,})", name)
        # `keyframe render` names files by the clip's stem: characters other than letters, digits, . - _ ~ become _.
        stem = re.sub(r"[^A-Za-z0-9._~-]", "_", match.group(1))
        reference = Image.open(os.path.join(render, "%s-%s.png" % (stem, match.group(2)))).convert("RGBA")
        if frame.size != reference.size or frame.tobytes() != reference.tobytes():
            print("%s: differs from the render (%s vs %s)" % (name, frame.size, reference.size))
            return 1
        count += 1
    if count == 0:
        print("no frames read")
        return 1
    print("%d frames identical" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
