#!/usr/bin/env python3
"""Cuts the frames of a sprite sheet with TextureAtlas Toolbox's own parsers and frame builder
(MeguminBOT/TextureAtlas-to-GIF-and-Frames, AGPL-3.0; fetched into a temporary folder, never committed), for
SpriteSheetRenderTests: `sheet-oracle-toolbox.py TOOLBOX_SRC SHEET ATLAS OUT` writes OUT/<n>.png for every frame in
file order and OUT/frames.json (the names and untrimmed sizes).

Only the toolbox's GUI helper module (`utils.utilities`, which needs PySide6) is replaced, by the one function the
parsers call (`strip_trailing_digits`, used for animation names, never for pixels). Each frame the toolbox builds
is cropped to the untrimmed frame (`frameWidth × frameHeight`): the toolbox widens its canvas for a picture that
reaches past the frame, a player shows the frame."""
import json
import os
import re
import sys
import types
import xml.etree.ElementTree as ET

src, sheet, atlas_path, out = sys.argv[1:5]
sys.path.insert(0, src)
utils = types.ModuleType("utils")
utilities = types.ModuleType("utils.utilities")


class Utilities:
    @staticmethod
    def strip_trailing_digits(name):
        return re.sub(r"\d+$", "", name)


utilities.Utilities = Utilities
utils.utilities = utilities
sys.modules["utils"] = utils
sys.modules["utils.utilities"] = utilities

import importlib.util

import numpy as np
from PIL import Image


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(src, path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


processor = load("toolbox_sprite_processor", "core/extractor/sprite_processor.py")
text = open(sheet, encoding="utf-8-sig").read()
if sheet.endswith(".xml"):
    parser = load("parsers.starling_xml_parser", "parsers/starling_xml_parser.py")
    sprites = parser.StarlingXmlParser.parse_from_root(ET.fromstring(text.encode("utf-8")))
else:
    data = json.loads(text)
    if isinstance(data["frames"], list):
        parser = load("parsers.json_array_parser", "parsers/json_array_parser.py")
        sprites = parser.JsonArrayAtlasParser.parse_from_frames(data["frames"])
    else:
        parser = load("parsers.json_hash_parser", "parsers/json_hash_parser.py")
        sprites = parser.JsonHashAtlasParser.parse_from_frames(data["frames"])
atlas = Image.open(atlas_path)
cutter = processor.SpriteProcessor(atlas, sprites)
os.makedirs(out, exist_ok=True)
listing = []
for index, sprite in enumerate(sprites):
    name, array, _ = cutter._build_frame_tuple(sprite)
    width, height = sprite["frameWidth"], sprite["frameHeight"]
    frame = np.zeros((height, width, 4), dtype=np.uint8)
    h, w = min(height, array.shape[0]), min(width, array.shape[1])
    frame[:h, :w] = array[:h, :w]
    Image.fromarray(frame, "RGBA").save(os.path.join(out, f"{index}.png"))
    listing.append({"name": name, "width": width, "height": height, "rotated": sprite["rotated"]})
json.dump(listing, open(os.path.join(out, "frames.json"), "w"))
