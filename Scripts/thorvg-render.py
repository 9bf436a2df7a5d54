#!/usr/bin/env python3
"""Renders frames of a Lottie file with ThorVG (PyPI thorvg-python, software canvas, one thread).

Usage: thorvg-render.py LOTTIE.json OUT.raw [--frames 0,1,5] [--size W H]

Writes the frames one after another to OUT.raw as premultiplied RGBA bytes (W x H x 4 each, rows top to bottom),
and prints one JSON line to stdout: {"width", "height", "frames" (the file's frame count), "version"}.
Frames are numbered from the file's in-point (frame 0 = `ip`), as rlottie numbers them. Without --size the file's
own `w` x `h` is used. Without --frames every frame is rendered.

Exit codes: 0 ok; 1 ThorVG refused the file or a frame; 2 usage; 3 thorvg-python is not installed (tests skip).
Keyframe's ThorVG conformance test (Tests/KeyframeLottieTests/ThorVGConformanceTests.swift) drives this script.
"""
import argparse
import ctypes
import json
import sys

try:
    import thorvg_python as tvg
except Exception as error:  # ImportError, or OSError when the bundled libthorvg cannot load
    print(f"thorvg-render: thorvg-python is not available: {error}", file=sys.stderr)
    sys.exit(3)


def main() -> int:
    parser = argparse.ArgumentParser(description="Render Lottie frames with ThorVG.")
    parser.add_argument("lottie")
    parser.add_argument("output")
    parser.add_argument("--frames", default=None, help="comma-separated frame numbers (default: every frame)")
    parser.add_argument("--size", nargs=2, type=int, default=None, metavar=("W", "H"))
    args = parser.parse_args()

    engine = tvg.Engine(threads=0)
    _, major, minor, micro, _ = engine.version()
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load(args.lottie) != tvg.Result.SUCCESS:
        print(f"thorvg-render: ThorVG cannot load {args.lottie}", file=sys.stderr)
        return 1
    _, file_width, file_height = picture.get_size()
    width, height = (args.size if args.size else (round(file_width), round(file_height)))
    if width <= 0 or height <= 0:
        print(f"thorvg-render: {args.lottie} has no size", file=sys.stderr)
        return 1
    picture.set_size(width, height)
    _, total = animation.get_total_frame()
    frames = ([int(f) for f in args.frames.split(",") if f != ""] if args.frames is not None
              else list(range(int(round(total)))))

    canvas = tvg.SwCanvas(engine)
    # ABGR8888: premultiplied, the word a<<24 | b<<16 | g<<8 | r, i.e. the bytes R, G, B, A in memory on a
    # little-endian machine -- the layout of Keyframe's Bitmap.
    if canvas.set_target(width, height, width, tvg.Colorspace.ABGR8888) != tvg.Result.SUCCESS:
        print("thorvg-render: cannot set the canvas target", file=sys.stderr)
        return 1
    canvas.add(picture)
    little = sys.byteorder == "little"
    with open(args.output, "wb") as out:
        for frame in frames:
            # set_frame answers INSUFFICIENT_CONDITION when the frame is already shown: not an error.
            result = animation.set_frame(float(frame))
            if result not in (tvg.Result.SUCCESS, tvg.Result.INSUFFICIENT_CONDITION):
                print(f"thorvg-render: frame {frame}: {result!r}", file=sys.stderr)
                return 1
            canvas.update()
            canvas.draw(True)
            canvas.sync()
            data = bytes(canvas.buffer_arr)
            if not little:  # the words are big-endian: reverse each to R, G, B, A
                data = b"".join(data[i:i + 4][::-1] for i in range(0, len(data), 4))
            out.write(data)
            ctypes.memset(canvas.buffer_arr, 0, ctypes.sizeof(canvas.buffer_arr))
    print(json.dumps({"width": width, "height": height, "frames": total,
                      "version": f"{major}.{minor}.{micro}"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
