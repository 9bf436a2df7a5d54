"""Reads a Keyframe sprite sheet with TextureAtlas Toolbox's own parsers and cuts every frame out with Pillow.

Usage: tat_read_sheet.py TOOLBOX_FOLDER DATA_FILE PAGE_PNG RENDER_FOLDER. TOOLBOX_FOLDER is a checkout of
TextureAtlas Toolbox (its src/ holds the parsers). The parser is chosen by the Toolbox's registry from the file; its
normalized sprites (x, y, width, height, frameX, frameY, frameWidth, frameHeight, rotated) place each frame, which is
compared with RENDER_FOLDER/<clip>-NNNN.png byte for byte. Only the Toolbox's Qt translation hook is replaced (by the
identity) when PySide6 is not installed: the parsers use it for messages only.
"""
import os
import re
import sys
import types

from PIL import Image


def stub_qt():
    try:
        import PySide6.QtCore  # noqa: F401
    except ImportError:
        qtcore = types.ModuleType("PySide6.QtCore")

        class QCoreApplication:
            @staticmethod
            def translate(context, text, *args):
                return text

        qtcore.QCoreApplication = QCoreApplication
        package = types.ModuleType("PySide6")
        package.QtCore = qtcore
        sys.modules["PySide6"] = package
        sys.modules["PySide6.QtCore"] = qtcore


def main():
    toolbox, data_file, page_png, render = sys.argv[1:5]
    sys.path.insert(0, os.path.join(toolbox, "src"))
    stub_qt()
    from parsers import parser_registry
    if hasattr(parser_registry, "ParserRegistry") and hasattr(parser_registry.ParserRegistry, "initialize"):
        parser_registry.ParserRegistry.initialize()
    result = parser_registry.parse_file(data_file)
    print("parser:", result.parser_name, "sprites:", len(result.sprites))
    page = Image.open(page_png).convert("RGBA")
    count = 0
    for sprite in result.sprites:
        name = sprite["name"]
        x, y, w, h = sprite["x"], sprite["y"], sprite["width"], sprite["height"]
        if sprite.get("rotated"):
            piece = page.crop((x, y, x + h, y + w)).rotate(90, expand=True)
        else:
            piece = page.crop((x, y, x + w, y + h))
        frame = Image.new("RGBA", (sprite["frameWidth"], sprite["frameHeight"]), (0, 0, 0, 0))
        frame.paste(piece, (-sprite["frameX"], -sprite["frameY"]))
        match = re.fullmatch(r"(.*?)(\d{4,})(\.png)?", name)
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
