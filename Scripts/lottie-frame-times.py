#!/usr/bin/env python3
"""Times how long Lottie players take to draw one frame of each given Lottie file.

Usage: lottie-frame-times.py LOTTIE.json... [--frames N] [--repetitions R] [--players rlottie,thorvg,lottie-web]

For each file and player: the mean time to draw one frame over the file's first N frames (default: every frame, at
most 48), the best of R passes (default 5), at the file's own size, one thread:
  rlottie     librlottie (the system's, through ctypes): lottie_animation_render into a reused buffer;
  thorvg      ThorVG's software canvas (PyPI thorvg-python): set_frame, update, draw, sync;
  lottie-web  lottie-web 5.13's canvas renderer in headless Chromium (../shared/players), goToAndStop(frame, true)
              timed with performance.now() inside the page (the canvas renderer draws synchronously).
Prints one line per file and player: `file player ms-per-frame frames`. A player that is not available prints
`unavailable` and the reason. Used for the mesh cost figures in docs/performance.md (a benchmark, not a test).
"""
import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOTTIE_WEB = os.path.join(ROOT, "..", "shared", "players", "lottie-web-5.13.0", "lottie.min.js")


def rlottie_times(path, frames, repetitions):
    lib = ctypes.CDLL("librlottie.so")
    lib.lottie_animation_from_data.restype = ctypes.c_void_p
    lib.lottie_animation_from_data.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
    lib.lottie_animation_get_size.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t),
                                              ctypes.POINTER(ctypes.c_size_t)]
    lib.lottie_animation_get_totalframe.restype = ctypes.c_size_t
    lib.lottie_animation_get_totalframe.argtypes = [ctypes.c_void_p]
    lib.lottie_animation_render.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
                                            ctypes.c_size_t, ctypes.c_size_t]
    lib.lottie_animation_destroy.argtypes = [ctypes.c_void_p]
    data = open(path, "rb").read()
    animation = lib.lottie_animation_from_data(data, ("frame-times:" + path).encode(), b"")
    if not animation:
        raise RuntimeError("rlottie refuses the file")
    w, h = ctypes.c_size_t(), ctypes.c_size_t()
    lib.lottie_animation_get_size(animation, ctypes.byref(w), ctypes.byref(h))
    total = lib.lottie_animation_get_totalframe(animation)
    count = min(frames or 48, total)
    buffer = (ctypes.c_uint32 * (w.value * h.value))()
    best = float("inf")
    for _ in range(repetitions):
        start = time.perf_counter()
        for frame in range(count):
            lib.lottie_animation_render(animation, frame, buffer, w.value, h.value, w.value * 4)
        best = min(best, (time.perf_counter() - start) / count)
    lib.lottie_animation_destroy(animation)
    return best, count


def thorvg_times(path, frames, repetitions):
    import thorvg_python as tvg
    engine = tvg.Engine(threads=0)
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load(path) != tvg.Result.SUCCESS:
        raise RuntimeError("ThorVG refuses the file")
    _, width, height = picture.get_size()
    width, height = round(width), round(height)
    _, total = animation.get_total_frame()
    count = min(frames or 48, int(round(total)))
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(width, height, width, tvg.Colorspace.ABGR8888)
    canvas.add(picture)
    best = float("inf")
    for _ in range(repetitions):
        start = time.perf_counter()
        for frame in range(count):
            animation.set_frame(float(frame))
            canvas.update()
            canvas.draw(True)
            canvas.sync()
        best = min(best, (time.perf_counter() - start) / count)
    return best, count


class DevTools:
    """Headless Chromium over --remote-debugging-pipe (NUL-separated JSON on fds 3 and 4)."""

    def __init__(self):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            raise RuntimeError("chromium is not installed")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="keyframe-frame-times-")

        def setup():
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--allow-file-access-from-files", f"--user-data-dir={self.profile}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=setup, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.next_id = 0
        self.buffer = b""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def send(self, method, params, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_child, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(reply["error"])
                return reply.get("result", {})

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True,
                                                "timeout": 600000}, session=self.session)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def close(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def lottie_web_times(path, frames, repetitions, browser):
    page = os.path.join(browser.profile, "times.html")
    with open(page, "w") as out:
        out.write(f'<!doctype html><html><body style="margin:0"><div id="stage"></div>'
                  f'<script src="file://{os.path.abspath(LOTTIE_WEB)}"></script></body></html>')
    browser.send("Page.navigate", {"url": "file://" + page}, session=browser.session)
    for _ in range(200):
        if browser.evaluate("typeof lottie === 'object'"):
            break
        time.sleep(0.05)
    data = open(path).read()
    script = """
    (async () => {
      const data = %s;
      const stage = document.getElementById('stage');
      stage.innerHTML = '';
      stage.style.width = data.w + 'px'; stage.style.height = data.h + 'px';
      const a = lottie.loadAnimation({container: stage, renderer: 'canvas', loop: false, autoplay: false,
                                      animationData: data});
      await new Promise((resolve) => {
        let dom = false, images = false;
        const check = () => { if (dom && images) resolve(); };
        a.addEventListener('DOMLoaded', () => { dom = true; check(); });
        a.addEventListener('loaded_images', () => { images = true; check(); });
        setTimeout(resolve, 30000);
      });
      const count = Math.min(%d || 48, Math.round(a.totalFrames));
      let best = Infinity;
      for (let r = 0; r < %d; r++) {
        const start = performance.now();
        for (let f = 0; f < count; f++) { a.goToAndStop(f, true); }
        best = Math.min(best, (performance.now() - start) / count);
      }
      a.destroy();
      return [best / 1000, count];
    })()
    """ % (data, frames or 0, repetitions)
    seconds, count = browser.evaluate(script)
    return seconds, count


def main():
    parser = argparse.ArgumentParser(description="Time Lottie players drawing one frame.")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--frames", type=int, default=0)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--players", default="rlottie,thorvg,lottie-web")
    args = parser.parse_args()
    players = args.players.split(",")
    browser = None
    for path in args.files:
        for player in players:
            try:
                if player == "rlottie":
                    seconds, count = rlottie_times(path, args.frames, args.repetitions)
                elif player == "thorvg":
                    seconds, count = thorvg_times(path, args.frames, args.repetitions)
                elif player == "lottie-web":
                    if browser is None:
                        browser = DevTools()
                    seconds, count = lottie_web_times(path, args.frames, args.repetitions, browser)
                else:
                    raise RuntimeError("unknown player")
                print(f"{path} {player} {seconds * 1000:.3f} {count}", flush=True)
            except Exception as error:  # report and go on with the other players
                print(f"{path} {player} unavailable {error}", flush=True)
    if browser:
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
