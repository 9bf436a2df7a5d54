/// The `diff` page's style sheet, per-clip tools and script (plain JavaScript, no libraries, no network).
///
/// Per clip the script scrubs through the frames both versions draw (the range slider, ←/→ while it has focus, or
/// a "frame N" button), shows them side by side, blinking (every 0.6 s; a click flips by hand) or as a swipe (the
/// older version left of the line, the newer right), zoomed to fit the window or 1×–16× with square pixels; the
/// curves read both versions' values under the pointer, show the scrubbed frame when they belong to the clip's
/// composition, and a click on a curve scrubs those clips to the frame under the pointer. `window.keyframeDiffPage` exposes the state for tests.
enum DiffPageScript {
    static let css = #"""
        body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f}
        h1{font-size:19px;margin:0 0 8px} h2{font-size:16px;margin:26px 0 8px} h3{font-size:14px;margin:16px 0 6px}
        .verdict{font-weight:600} .changed{color:#b3261e} .same{color:#0a7d32}
        code{background:#f2f2f4;padding:0 3px;border-radius:3px}
        ul.structure{list-style:none;padding:0;margin:0;font-family:ui-monospace,monospace;font-size:13px}
        ul.structure li{padding:1px 0} .added{color:#0a7d32} .removed{color:#b3261e} .renamed,.changed-item{color:#7a4d00}
        table{border-collapse:collapse;font-size:13px} th,td{text-align:left;padding:3px 10px 3px 0;vertical-align:top}
        th{border-bottom:1px solid #ccc} td.num{font-variant-numeric:tabular-nums;text-align:right}
        tr.node td{padding-top:10px;font-weight:600} .terms{color:#555}
        figure.curve{margin:8px 0 14px} svg text{font:11px system-ui,sans-serif;fill:#555}
        svg text.readout{fill:#1d1d1f;font-weight:600}
        .row{display:flex;gap:14px;flex-wrap:wrap;align-items:flex-start;margin:6px 0 10px}
        figure{margin:0} figcaption{font-size:12px;color:#555}
        img,canvas.compare{image-rendering:pixelated;border:1px solid #c7c7cc;
        background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}
        img{max-width:100%;height:auto} img.alike{filter:grayscale(1);background:#fff} .stage{overflow:auto;max-width:100%;max-height:85vh}
        .tools{display:flex;gap:10px;align-items:center;flex-wrap:wrap;margin:6px 0}
        .tools input.scrub{width:min(420px,60vw)} .tools .at{font-variant-numeric:tabular-nums;min-width:150px}
        .tools button[aria-pressed=true]{font-weight:600;background:#dde6f5}
        .legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;border:1px solid #999}
        .jumps button{margin:0 2px}
        """#

    /// The controls above a clip's frames, shown by the script.
    static let tools = """
        <div class="tools" hidden><label>frame <input type="range" class="scrub" min="0" max="0" value="0" \
        aria-label="frame"></label><span class="at"></span><span role="group" aria-label="compare">\
        <button type="button" data-mode="side" aria-pressed="true">side by side</button>\
        <button type="button" data-mode="blink" aria-pressed="false">blink</button>\
        <button type="button" data-mode="swipe" aria-pressed="false">swipe</button></span>\
        <label class="amount" hidden>swipe <input type="range" class="split" min="0" max="100" value="50"></label>\
        <label>zoom <select class="zoom"><option value="fit">fit</option><option value="1">1×</option>\
        <option value="2">2×</option><option value="4">4×</option><option value="8">8×</option>\
        <option value="16">16×</option></select></label></div>

        """

    static let script = #"""
        "use strict";
        (function () {
          const data = JSON.parse(document.getElementById("diff-frames").textContent);
          const page = { ready: false, clips: [] };
          window.keyframeDiffPage = page;
          const curves = [...document.querySelectorAll("figure.curve")].map((figure) => {
            const values = JSON.parse(figure.dataset.values), svg = figure.querySelector("svg");
            const x = (f) => values.left + (values.span > 0 ? f / values.span : 0) * values.plot;
            return { figure, values, svg, x, readout: svg.querySelector(".readout"),
                     hover: svg.querySelector("line.hover"), playhead: svg.querySelector("line.playhead") };
          });
          const fmt = (v) => (v === null ? "—" : String(+v.toFixed(3)));
          // Both versions' values at the sampled frame nearest to frame f: `frame 7: x -20 → -8 · y …`.
          function readAt(c, f) {
            const fs = c.values.frames;
            let k = 0;
            for (let i = 0; i < fs.length; i++) if (Math.abs(fs[i] - f) < Math.abs(fs[k] - f)) k = i;
            const parts = c.values.names.map((name, n) => (c.values.names.length > 1 ? name + " " : "")
              + fmt(c.values.before[n][k]) + " → " + fmt(c.values.after[n][k]) + " " + c.values.unit);
            const differs = c.values.differing.includes(fs[k]) ? " (differs)" : "";
            return { frame: fs[k], text: "frame " + fs[k] + ": " + parts.join(" · ") + differs };
          }
          for (const c of curves) {
            c.svg.addEventListener("pointermove", (e) => {
              const box = c.svg.getBoundingClientRect();
              const px = (e.clientX - box.left) * (c.svg.viewBox.baseVal.width / box.width);
              const f = Math.round((px - c.values.left) / c.values.plot * c.values.span);
              const at = readAt(c, Math.max(0, Math.min(c.values.span, f)));
              c.hover.setAttribute("x1", c.x(at.frame)); c.hover.setAttribute("x2", c.x(at.frame));
              c.hover.setAttribute("visibility", "visible");
              c.readout.textContent = at.text;
              c.figure.dataset.hoverFrame = String(at.frame);
            });
            c.svg.addEventListener("pointerleave", () => { c.hover.setAttribute("visibility", "hidden"); });
            // A click scrubs the clips that play this composition to the frame under the pointer.
            c.svg.addEventListener("click", () => {
              const f = Number(c.figure.dataset.hoverFrame);
              if (isNaN(f)) return;
              for (const clip of page.clips) {
                if (clip.section.dataset.composition !== c.figure.dataset.composition) continue;
                const k = clip.moments.findIndex((m) => m[0] === f - Number(clip.section.dataset.start));
                if (k >= 0) clip.show(k);
              }
            });
          }

          document.querySelectorAll("section.clip").forEach((section) => {
            const clip = data[Number(section.dataset.index)];
            const tools = section.querySelector(".tools"), side = section.querySelector(".row.side");
            if (!clip || !tools || !side || !clip.moments.length) return;
            tools.hidden = false;
            const [before, after, overlay] = [...side.querySelectorAll("img")];
            const stage = section.querySelector(".stage"), canvas = stage.querySelector("canvas");
            const ctx = canvas.getContext("2d"), which = stage.querySelector(".which");
            const scrub = tools.querySelector(".scrub"), at = tools.querySelector(".at");
            const zoom = tools.querySelector("select.zoom"), split = tools.querySelector(".split");
            const caption = section.querySelector(".caption");
            const images = clip.pictures.map(() => null);
            function image(i) {
              if (!images[i]) { images[i] = new Image(); images[i].src = "data:image/png;base64," + clip.pictures[i]; }
              return images[i];
            }
            const state = { index: 0, mode: "side", showingAfter: true, timer: null, zoom: 1, painted: null };
            scrub.max = String(clip.moments.length - 1);
            const width = canvas.width, height = canvas.height;
            function scale() {
              let z = zoom.value === "fit" ? null : Number(zoom.value);
              if (z === null) {
                // Fit: as large as the window allows (three pictures side by side, or one), never below 1 px a pixel.
                const room = section.clientWidth - 20, across = state.mode === "side" ? 3 : 1;
                z = Math.max(1, Math.min((room - 14 * (across - 1)) / across / width, (window.innerHeight * 0.7) / height));
                z = Math.max(1, Math.floor(z));
              }
              for (const e of [before, after, overlay, canvas]) {
                e.style.width = width * z + "px"; e.style.height = height * z + "px"; e.style.maxWidth = "none";
              }
              state.zoom = z;
            }
            function drawCompare() {
              const m = clip.moments[state.index];
              const a = image(m[2]), b = image(m[3]);
              const paint = () => {
                if (!a.complete || !b.complete) return;
                ctx.clearRect(0, 0, width, height);
                if (state.mode === "blink") {
                  ctx.drawImage(state.showingAfter ? b : a, 0, 0);
                  which.textContent = state.showingAfter ? "after" : "before";
                  state.painted = which.textContent;
                } else if (state.mode === "swipe") {
                  const cut = Math.round(width * Number(split.value) / 100);
                  ctx.drawImage(a, 0, 0);
                  ctx.save(); ctx.beginPath(); ctx.rect(cut, 0, width - cut, height); ctx.clip();
                  ctx.clearRect(cut, 0, width - cut, height); ctx.drawImage(b, 0, 0); ctx.restore();
                  ctx.fillStyle = "#e00"; ctx.fillRect(Math.min(width - 1, cut), 0, 1, height);
                  which.textContent = "before | after";
                  state.painted = "swipe " + split.value;
                }
              };
              for (const img of [a, b]) if (!img.complete) img.addEventListener("load", paint, { once: true });
              paint();
            }
            function show(index) {
              state.index = Math.max(0, Math.min(clip.moments.length - 1, index));
              const m = clip.moments[state.index];
              scrub.value = String(state.index);
              before.src = image(m[2]).src; after.src = image(m[3]).src;
              // Frames both versions draw alike carry no overlay picture: the older one in grey is what it would show.
              overlay.src = image(m[4] >= 0 ? m[4] : m[2]).src;
              overlay.classList.toggle("alike", m[4] < 0);
              at.textContent = "frame " + m[0] + " (" + m[1] + " s)";
              let text = "frame " + m[0] + " (" + m[1] + " s): " + (m[5] ? m[5] + " pixel(s) differ, at most " + m[6] : "both versions draw alike");
              if (m[7]) text += ", area x " + m[7][0] + " y " + m[7][1] + " " + m[7][2] + "×" + m[7][3];
              caption.textContent = text;
              section.dataset.frame = String(m[0]);
              if (state.mode !== "side") drawCompare();
              // The curves of this clip's composition show the frame.
              const frame = Number(section.dataset.start) + m[0];
              for (const c of curves) {
                if (c.figure.dataset.composition !== section.dataset.composition) continue;
                c.playhead.setAttribute("x1", c.x(frame)); c.playhead.setAttribute("x2", c.x(frame));
                c.playhead.setAttribute("visibility", "visible");
              }
            }
            function setMode(mode) {
              state.mode = mode;
              for (const b of tools.querySelectorAll("button[data-mode]")) b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
              side.hidden = mode !== "side"; stage.hidden = mode === "side";
              tools.querySelector(".amount").hidden = mode !== "swipe";
              clearInterval(state.timer); state.timer = null;
              if (mode === "blink") {
                state.showingAfter = true;
                state.timer = setInterval(() => { state.showingAfter = !state.showingAfter; drawCompare(); }, 600);
              }
              scale();
              if (mode !== "side") drawCompare();
            }
            tools.addEventListener("click", (e) => {
              const button = e.target.closest("button[data-mode]");
              if (button) setMode(button.dataset.mode);
            });
            section.querySelector(".jumps").addEventListener("click", (e) => {
              const button = e.target.closest("button[data-frame]");
              if (!button) return;
              const k = clip.moments.findIndex((m) => m[0] === Number(button.dataset.frame));
              if (k >= 0) show(k);
            });
            canvas.addEventListener("click", () => {
              if (state.mode !== "blink") return;
              clearInterval(state.timer); state.timer = null;
              state.showingAfter = !state.showingAfter; drawCompare();
            });
            scrub.addEventListener("input", () => show(Number(scrub.value)));
            split.addEventListener("input", drawCompare);
            zoom.addEventListener("change", scale);
            window.addEventListener("resize", () => { if (zoom.value === "fit") scale(); });
            // Open on the most different frame, the one the page shows without its script.
            let worst = 0;
            clip.moments.forEach((m, k) => { if (m[5] > clip.moments[worst][5]) worst = k; });
            scale(); show(worst);
            page.clips.push({ section, show, setMode, state, moments: clip.moments });
          });
          page.curves = curves;
          page.readAt = readAt;
          page.ready = true;
        })();
        """#
}
