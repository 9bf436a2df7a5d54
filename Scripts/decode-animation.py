#!/usr/bin/env python3
"""Decodes an animated GIF or WebP frame by frame with a decoder Keyframe did not write, for the tests.

    decode-animation.py pillow FILE DIR   every frame, composited, as DIR/NNNN.png (RGBA, straight alpha); prints
                                          {"durations": [ms, ...], "loop": N or null, "format": "GIF"|"WEBP"}
    decode-animation.py ffmpeg FILE DIR   every frame as ffmpeg decodes it (no frames dropped or repeated), as
                                          DIR/NNNN.png (RGBA); prints {"frames": N}
"""
import json
import os
import subprocess
import sys


def pillow(path, folder):
    from PIL import Image
    image = Image.open(path)
    durations = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        image.load()  # WebP sets the frame's duration when it is decoded
        durations.append(image.info.get("duration", 0))
        image.convert("RGBA").save(os.path.join(folder, "%04d.png" % index))
    return {"durations": durations, "loop": image.info.get("loop"), "format": image.format}


def ffmpeg(path, folder):
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-fps_mode", "passthrough", "-pix_fmt", "rgba",
                    "-start_number", "0", os.path.join(folder, "%04d.png")], check=True)
    return {"frames": len([name for name in os.listdir(folder) if name.endswith(".png")])}


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("pillow", "ffmpeg"):
        sys.exit(__doc__)
    os.makedirs(sys.argv[3], exist_ok=True)
    decode = pillow if sys.argv[1] == "pillow" else ffmpeg
    print(json.dumps(decode(sys.argv[2], sys.argv[3])))
