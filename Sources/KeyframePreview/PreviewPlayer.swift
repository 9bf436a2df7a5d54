/// The preview page's player: its style sheet, markup and script (plain JavaScript, no libraries, no network).
///
/// The script runs before the pictures are parsed: each picture block that arrives is announced to it, and the
/// frame asked for (the first, or the one the URL names) is decoded and drawn as soon as its own pictures are
/// there — not after every picture of the page — with a loading state until then. The other pictures are decoded
/// in the background, a few at a time, and any frame the viewer asks for jumps the queue; playback waits for a
/// frame that is not decoded yet instead of skipping it. A frame is drawn into a canvas as its layers (a key
/// picture, then a patch over the rectangle it covers; ``PreviewFrameEncoder``) at one picture pixel per canvas
/// pixel; the zoom (fit to the window by default, enlarging small frames too — by the largest whole factor that
/// fits, so every picture pixel is the same square — or 1×, 2×, 4×, 8×) scales the canvas without smoothing. The curves
/// read out every series under the pointer (value, frame, the easing of the segment) and can show velocity. Playing follows
/// `requestAnimationFrame` timestamps, so the clip plays at its frame rate whatever the display's; the shown
/// frames' timestamps are kept in `keyframePreview.shown` for measuring dropped frames.
enum PreviewPlayer {
    static let css = #"""
        :root{font:13px/1.4 system-ui,sans-serif;color:#1d1d1f;background:#f5f5f7}
        body{margin:0;padding:12px 16px}
        header{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
        h1{font-size:16px;margin:0 12px 0 0}
        #stage{display:inline-block;position:relative;border:1px solid #c7c7cc;line-height:0;margin:0;padding:0}
        #loading{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;line-height:1.4;
        font-size:13px;color:#333;background:rgba(245,245,247,.85);pointer-events:none}
        #loading[hidden]{display:none}
        #stage.waiting #view{opacity:.55}
        #progress{color:#666;font-size:12px;font-variant-numeric:tabular-nums}
        #stage.checker{background:repeating-conic-gradient(#d0d0d4 0 25%,#fff 0 50%) 0 0/16px 16px}
        #view{display:block;image-rendering:pixelated}
        #controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin:8px 0}
        #controls button{min-width:34px;height:28px}
        #scrubber{width:min(640px,90vw);display:block;margin:6px 0}
        #readout{font-variant-numeric:tabular-nums;min-width:220px}
        section{margin-top:14px} h2{font-size:14px;margin:4px 0}
        svg text{font:11px system-ui,sans-serif;fill:#555} svg text.readout{fill:#1d1d1f;font-weight:600}
        .help{color:#666;font-size:12px}
        #timeline{position:relative;border:1px solid #d1d1d6;background:#fff;max-height:420px;overflow:auto;outline:none}
        .tl-row,.tl-ruler{display:flex;align-items:stretch;height:20px;border-bottom:1px solid #f0f0f3;cursor:pointer}
        .tl-ruler{position:sticky;top:0;z-index:2;background:#fafafa;border-bottom:1px solid #d1d1d6;height:22px}
        .tl-label{flex:0 0 220px;width:220px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;font-size:12px;
        line-height:20px;padding-right:6px;box-sizing:border-box;border-right:1px solid #e5e5ea}
        .tl-label .kind{color:#8e8e93;font-size:11px;margin-left:4px}
        .tl-group{font-size:12px;font-weight:600;padding:3px 6px;background:#f2f2f7;border-bottom:1px solid #e5e5ea}
        .tl-row[aria-selected=true]{background:#e3eefc}
        .tl-row:focus{outline:2px solid #0a64d8;outline-offset:-2px}
        .tl-track{display:block;flex:0 0 auto}
        #tl-playhead{position:absolute;top:0;width:1px;background:#e00;pointer-events:none;z-index:3}
        .key-mark{color:#1d1d1f}
        .seg{display:inline-block;width:18px;vertical-align:middle}
        .seg.linear{height:4px;background:#6aa0e8} .seg.eased{height:6px;background:#9b6ad8} .seg.hold{border-top:1px dashed #aaa}
        """#

    static let body = #"""
        <header><h1 id="title"></h1>
        <label>clip <select id="clip"></select></label>
        <label>zoom <select id="zoom"><option value="fit" selected>fit</option><option value="1">1×</option><option value="2">2×</option><option value="4">4×</option><option value="8">8×</option></select></label>
        <label>background <select id="bg"><option value="checker">checkerboard</option><option value="color">colour</option></select></label>
        <input type="color" id="bgcolor" value="#ffffff" title="background colour">
        <span id="progress" role="status"></span>
        </header>
        <div id="stage" class="checker"><canvas id="view" width="1" height="1"></canvas><div id="loading" role="status">Loading…</div></div>
        <input type="range" id="scrubber" min="0" max="0" step="1" value="0" aria-label="frame">
        <div id="controls">
        <button id="first" title="first frame (Home)">|«</button>
        <button id="back" title="previous frame (←)">◀|</button>
        <button id="play" title="play / pause (space)">▶</button>
        <button id="forward" title="next frame (→)">|▶</button>
        <button id="last" title="last frame (End)">»|</button>
        <label><input type="checkbox" id="reverse"> reverse</label>
        <label><input type="checkbox" id="loop" checked> loop</label>
        <label>speed <select id="speed"><option>0.1</option><option>0.25</option><option>0.5</option><option selected>1</option><option>2</option><option>4</option></select>×</label>
        <label><input type="checkbox" id="onion"> onion skin</label>
        <span id="readout"></span>
        </div>
        <section id="timelineSection"><h2>Timeline</h2>
        <div id="timeline" role="listbox" aria-label="timeline: one row per node; click or drag to seek; ↑/↓ choose a node; Shift+←/→ its previous or next keyframe"></div>
        <p class="help"><span class="key-mark">◆</span> keyframe · <span class="seg linear"></span> linear · <span class="seg eased"></span> eased · <span class="seg hold"></span> held. Click or drag a row or the ruler to seek; ↑/↓ choose a node, Shift+←/→ jump to its previous or next keyframe.</p></section>
        <section id="curvesSection"><h2>Curves of <span id="curvesOf"></span></h2>
        <label class="help"><input type="checkbox" id="velocity"> velocity (change per second)</label>
        <div id="curves"></div></section>
        <section id="scriptSection" hidden><h2>Animators: fraction complete</h2><div id="script"></div></section>
        <p class="help">Keys: space play/pause · ←/→ step · Home/End first/last · in the timeline ↑/↓ node, Shift+←/→ keyframe. Link to a frame: #frame=N&amp;clip=NAME.</p>
        """#

    static let script = #"""
        "use strict";
        (function () {
          const data = JSON.parse(document.getElementById("kf-data").textContent);
          const $ = (id) => document.getElementById(id);
          const view = $("view"), ctx = view.getContext("2d"), scrubber = $("scrubber");
          const state = { clip: 0, index: 0, playing: false, position: 0, last: null, drawn: null, node: null };
          const shown = [];
          const api = { ready: false, shown, state, data, firstFrameAt: null, decodedAtFirstFrame: null };
          window.keyframePreview = api;
          $("title").textContent = data.title;
          document.title = data.title + " — Keyframe preview";

          // ---- pictures: announced as their blocks arrive, decoded on demand and in the background ----
          const total = data.pictures;
          const pictures = new Array(total).fill(null);
          const blocks = document.getElementsByClassName("kf-picture");  // live: grows while the page is parsed
          let arrived = data.sources ? total : 0, decoded = 0, busy = 0, queued = 0;
          function source(i) { return data.sources ? data.sources[i] : "data:image/png;base64," + blocks[i].textContent; }
          function request(i) {
            if (pictures[i]) return;
            if (i >= arrived) return;
            const img = new Image(), entry = { img, ready: false };
            pictures[i] = entry;
            busy++;
            img.src = source(i);
            img.decode().catch(() => {}).then(() => {
              entry.ready = true; decoded++; busy--;
              progress(); pump();
              if (!isDrawn()) draw();
            });
          }
          // Background decoding in page order, two at a time; what the viewer asks for is requested directly.
          function pump() {
            while (busy < 2 && queued < arrived) { if (!pictures[queued]) request(queued); queued++; }
          }
          function frameReady(c, k) { return c.layers[k].every((l) => pictures[l[0]] && pictures[l[0]].ready); }
          function requestFrame(c, k) { for (const l of c.layers[k]) request(l[0]); }
          function progress() {
            const text = decoded < total ? "pictures " + decoded + " / " + total + " decoded" : "";
            $("progress").textContent = text;
            if (!api.ready) $("loading").textContent = "Loading… " + decoded + " / " + total + " pictures";
          }
          api.arrived = () => {
            if (!data.sources) arrived = blocks.length;
            pump();
            if (!isDrawn()) draw();
          };
          Object.defineProperty(api, "decoded", { get: () => decoded });
          api.pictures = pictures;

          data.clips.forEach((clip, i) => {
            const option = document.createElement("option");
            option.value = String(i); option.textContent = clip.name; $("clip").appendChild(option);
          });
          const clip = () => data.clips[state.clip];
          const count = () => clip().numbers.length;

          function applyZoom() {
            const c = clip(), zoom = $("zoom").value;
            // Fit: the whole frame as large as the window allows both ways, leaving room for the controls below it;
            // enlarged by whole factors, so every picture pixel is the same square (a large frame is shrunk to fit).
            let scale = zoom === "fit"
              ? Math.min((document.documentElement.clientWidth - 40) / c.width, (window.innerHeight * 0.62) / c.height)
              : Number(zoom);
            if (!(scale > 0)) scale = 1;
            if (zoom === "fit" && scale >= 1) scale = Math.floor(scale);
            view.dataset.scale = String(scale);
            view.style.width = Math.max(1, Math.round(c.width * scale)) + "px";
            view.style.height = Math.max(1, Math.round(c.height * scale)) + "px";
          }

          // A frame's layers into a 2D context: cleared, the first layer drawn, each later one replacing its rectangle.
          function compose(context, c, k) {
            context.clearRect(0, 0, c.width, c.height);
            c.layers[k].forEach((l, n) => {
              const img = pictures[l[0]].img;
              if (n > 0) context.clearRect(l[1], l[2], img.naturalWidth, img.naturalHeight);
              context.drawImage(img, l[1], l[2]);
            });
          }
          let scratch = null;
          function isDrawn() {
            const d = state.drawn;
            return d !== null && d.clip === state.clip && d.index === state.index && d.onion === $("onion").checked;
          }

          function draw() {
            const c = clip(), n = count();
            if (view.width !== c.width || view.height !== c.height) { view.width = c.width; view.height = c.height; applyZoom(); }
            scrubber.max = String(n - 1);
            scrubber.value = String(state.index);
            const readout = "frame " + c.numbers[state.index] + " (" + (state.index + 1) + "/" + n + ") · "
              + c.seconds[state.index].toFixed(3) + " s @ " + c.fps + " fps";
            updatePlayheads();
            const onion = $("onion").checked ? [state.index - 1, state.index + 1].filter((k) => k >= 0 && k < n) : [];
            for (const k of [state.index].concat(onion)) requestFrame(c, k);
            if (![state.index].concat(onion).every((k) => frameReady(c, k))) {
              $("stage").classList.add("waiting");
              $("readout").textContent = readout + " · loading";
              return;
            }
            $("stage").classList.remove("waiting");
            ctx.imageSmoothingEnabled = false;
            ctx.globalAlpha = 1;
            compose(ctx, c, state.index);
            if (onion.length) {
              // The neighbours over the current frame at 30 %, so they show on opaque frames too.
              if (!scratch) scratch = document.createElement("canvas");
              scratch.width = c.width; scratch.height = c.height;
              const other = scratch.getContext("2d");
              other.imageSmoothingEnabled = false;
              ctx.globalAlpha = 0.3;
              for (const k of onion) { compose(other, c, k); ctx.drawImage(scratch, 0, 0); }
              ctx.globalAlpha = 1;
            }
            $("readout").textContent = readout;
            view.dataset.frame = String(c.numbers[state.index]);
            view.dataset.clip = c.name;
            state.drawn = { clip: state.clip, index: state.index, onion: $("onion").checked };
            if (!api.ready) {
              api.ready = true;
              api.firstFrameAt = performance.now();
              api.decodedAtFirstFrame = decoded;
              $("loading").hidden = true;
              document.body.dataset.ready = "1";
            }
          }

          function show(index, fromPlayback) {
            const n = count();
            state.index = Math.max(0, Math.min(n - 1, index));
            if (!fromPlayback) state.position = state.index;
            draw();
          }

          function setHash() {
            const hash = "#frame=" + clip().numbers[state.index] + "&clip=" + encodeURIComponent(clip().name);
            if (location.hash !== hash) history.replaceState(null, "", hash);
          }

          function step(delta) { pause(); show(state.index + delta); setHash(); }

          function play() {
            if (state.playing) return;
            const n = count();
            const reverse = $("reverse").checked;
            if (!$("loop").checked && ((!reverse && state.index === n - 1) || (reverse && state.index === 0))) {
              state.position = reverse ? n - 1 : 0; state.index = state.position;
            }
            state.playing = true; state.last = null; $("play").textContent = "⏸";
            requestAnimationFrame(tick);
          }
          function pause() {
            if (!state.playing) return;
            state.playing = false; $("play").textContent = "▶"; setHash();
          }

          function tick(now) {
            if (!state.playing) return;
            const c = clip(), n = count();
            const first = state.last === null;
            const before = state.position;
            if (!first) {
              const speed = Number($("speed").value) || 1;
              const direction = $("reverse").checked ? -1 : 1;
              state.position += direction * (now - state.last) / 1000 * c.fps * speed;
            }
            state.last = now;
            // Rounded, not floored: display callbacks jitter by a fraction of a millisecond, and at a clip rate
            // equal to the display's a floor would hold one frame and skip the next whenever a callback is early.
            let index = Math.floor(state.position + 0.5);
            if (index >= n || index < 0) {
              if ($("loop").checked) {
                state.position = ((state.position % n) + n) % n; index = Math.floor(state.position + 0.5) % n;
              } else {
                index = index >= n ? n - 1 : 0; show(index); pause(); return;
              }
            }
            if (index !== state.index && !frameReady(c, index)) {
              // Not decoded yet: wait on the current frame (the clock stands still) rather than skip it.
              requestFrame(c, index);
              state.position = before;
              requestAnimationFrame(tick);
              return;
            }
            if (index !== state.index || first) {
              show(index, true);
              shown.push([now, index]);
              if (shown.length > 5000) shown.shift();
            }
            requestAnimationFrame(tick);
          }

          // ---- curves and script graphs (SVG) ----
          const SVG = "http://www.w3.org/2000/svg";
          const colours = ["#0a64d8", "#d83a0a", "#1d9a3a", "#8a2be2", "#c08a00", "#00868b"];
          const playheads = [];
          function el(name, attrs, parent) {
            const e = document.createElementNS(SVG, name);
            for (const k in attrs) e.setAttribute(k, attrs[k]);
            if (parent) parent.appendChild(e);
            return e;
          }
          function graph(container, title, series, duration, fixedRange, marks, unit, zero) {
            const W = 640, H = 150, L = 56, R = 10, T = 16, B = 20;
            let lo = Infinity, hi = -Infinity;
            for (const s of series) for (const v of s.values) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
            if (fixedRange) { lo = Math.min(lo, fixedRange[0]); hi = Math.max(hi, fixedRange[1]); }
            if (!(hi > lo)) { const m = isFinite(lo) ? lo : 0; lo = m - 1; hi = m + 1; }
            const x = (t) => L + (duration > 0 ? t / duration : 0) * (W - L - R);
            const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
            const svg = el("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" }, container);
            el("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "#fff", stroke: "#ccc" }, svg);
            el("text", { x: L, y: 11 }, svg).textContent = title;
            el("text", { x: L - 4, y: T + 4, "text-anchor": "end" }, svg).textContent = +hi.toFixed(3);
            el("text", { x: L - 4, y: H - B, "text-anchor": "end" }, svg).textContent = +lo.toFixed(3);
            el("text", { x: W - R, y: H - 5, "text-anchor": "end" }, svg).textContent = duration.toFixed(2) + " s";
            el("text", { x: L, y: H - 5 }, svg).textContent = "0 s";
            // A tick per frame of the clip under the plot, longer and numbered every few frames.
            const c = clip(), every = Math.max(1, Math.ceil(c.seconds.length / 16));
            c.seconds.forEach((t, k) => {
              const long = k % every === 0;
              el("line", { x1: x(t), x2: x(t), y1: H - B, y2: H - B + (long ? 5 : 3), stroke: "#999", class: "frame-tick" }, svg);
              if (long && k > 0 && x(t) < W - R - 40) el("text", { x: x(t), y: H - 5, "text-anchor": "middle" }, svg).textContent = String(c.numbers[k]);
            });
            if (zero && lo < 0 && hi > 0) el("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#ddd" }, svg);
            for (const m of marks || []) {
              el("line", { x1: x(m.t), x2: x(m.t), y1: T, y2: H - B, stroke: "#999", "stroke-dasharray": "3 3" }, svg);
              el("text", { x: x(m.t) + 2, y: T + 10 + (marks.indexOf(m) % 4) * 11 }, svg).textContent = m.label;
            }
            series.forEach((s, i) => {
              const colour = colours[i % colours.length];
              // A gap (null: a nested instance not shown) breaks the line.
              let run = [];
              const flush = () => {
                if (run.length) el("polyline", { points: run.join(" "), fill: "none", stroke: colour, "stroke-width": 1.5 }, svg);
                run = [];
              };
              s.times.forEach((t, k) => {
                if (s.values[k] === null) flush(); else run.push(x(t).toFixed(1) + "," + y(s.values[k]).toFixed(1));
              });
              flush();
              for (const key of s.keys || []) {
                el("circle", { cx: x(key[0]), cy: y(key[1]), r: 3.5, fill: "#fff", stroke: colour, "stroke-width": 1.5 }, svg)
                  .appendChild(el("title", {})).textContent = s.name + " = " + key[1] + " at " + key[0] + " s, then " + (key[3] || "");
              }
              el("text", { x: W - R - 4, y: T + 12 + i * 12, "text-anchor": "end", fill: colour }, svg).textContent = s.name;
            });
            const head = el("line", { y1: T, y2: H - B, stroke: "#e00", "stroke-width": 1 }, svg);
            // The value at the playhead, above the plot on the right; under the pointer, the value there instead.
            const readout = marks ? null : el("text", { x: W - R, y: 11, "text-anchor": "end", class: "readout" }, svg);
            const entry = { head, x, series, readout, unit: unit || "", hover: null };
            playheads.push(entry);
            const cursor = el("line", { y1: T, y2: H - B, stroke: "#555", "stroke-dasharray": "2 2", visibility: "hidden" }, svg);
            svg.addEventListener("pointermove", (e) => {
              const box = svg.getBoundingClientRect();
              const px = (e.clientX - box.left) * (W / box.width);
              const t = Math.max(0, Math.min(duration, (px - L) / (W - L - R) * duration));
              entry.hover = t;
              cursor.setAttribute("x1", x(t)); cursor.setAttribute("x2", x(t)); cursor.setAttribute("visibility", "visible");
              if (readout) readout.textContent = describeAt(entry, t, true);
              svg.dataset.hoverTime = String(t);
            });
            svg.addEventListener("pointerleave", () => {
              entry.hover = null; cursor.setAttribute("visibility", "hidden"); updatePlayheads();
            });
          }
          // Every series' value at time t, the frame it falls in and, under the pointer, the easing there.
          function describeAt(p, t, hovering) {
            const c = clip();
            let k = 0;
            for (let i = 0; i < c.seconds.length; i++) if (c.seconds[i] <= t + 1e-9) k = i;
            const values = p.series.map((s) => {
              const v = valueAt(s, t);
              return (p.series.length > 1 ? s.name + " " : "") + (v === null ? "—" : +v.toFixed(3) + p.unit);
            }).join(" · ");
            let text = values + " at frame " + c.numbers[k] + ", " + t.toFixed(3) + " s";
            if (hovering) {
              const keys = (p.series[0].keys || []).filter((key) => key[0] <= t + 1e-9);
              if (keys.length && keys[keys.length - 1][3]) text += " · " + keys[keys.length - 1][3];
            }
            return text;
          }
          // A series' rate of change per second, by central differences of its samples (null across gaps).
          function velocity(s) {
            const ts = s.times, vs = s.values, out = vs.map(() => null);
            for (let k = 0; k < vs.length; k++) {
              const a = Math.max(0, k - 1), b = Math.min(vs.length - 1, k + 1);
              if (b > a && vs[a] !== null && vs[b] !== null && ts[b] > ts[a]) out[k] = (vs[b] - vs[a]) / (ts[b] - ts[a]);
            }
            return { name: s.name, times: ts, values: out, keys: [] };
          }
          function clipDuration(c) {
            const last = c.seconds[c.seconds.length - 1] || 0;
            let d = last + 1 / c.fps;
            for (const node of c.nodes) for (const cv of node.curves) d = Math.max(d, cv.times[cv.times.length - 1] || 0);
            return d;
          }
          // ---- the timeline: one row per node, grouped by composition; keyframe ticks and eased segments ----
          const LABEL = 220;
          let trackWidth = 600, rows = [];
          function nodeOrder(c) {
            // Tree order within each group (the clip's composition, then each nested instance), as the data lists them.
            return c.nodes.map((n, i) => i);
          }
          function groupOf(node, c) {
            return node.nested ? node.nested.instances.join(" › ") + " › " + node.nested.composition : c.composition;
          }
          function depthOf(node, byId) {
            let depth = 0, p = node.parent;
            while (p && byId[p] && depth < 32) { depth++; p = byId[p].parent; }
            return depth;
          }
          // Every keyframe time of a node with how it leaves it: 0 hold, 1 linear, 2 eased (the strongest of its tracks).
          function keyTimes(node) {
            const map = new Map();
            const names = new Map();
            for (const cv of node.curves) for (const k of cv.keys) {
              if (!map.has(k[0]) || (k[2] ?? 0) > map.get(k[0])) names.set(k[0], k[3] || "");
              map.set(k[0], Math.max(map.get(k[0]) ?? 0, k[2] ?? 0));
            }
            // [time, segment, the easing's name]: the strongest segment leaving that time.
            return [...map.entries()].sort((a, b) => a[0] - b[0]).map(([t, seg]) => [t, seg, names.get(t)]);
          }
          function seekToX(x) {
            const c = clip(), d = clipDuration(c);
            const t = Math.max(0, Math.min(d, (x / trackWidth) * d));
            // Frame k lasts from k/fps to (k+1)/fps: the frame whose time the point falls in.
            let k = 0;
            for (let i = 0; i < c.seconds.length; i++) if (c.seconds[i] <= t + 1e-9) k = i;
            pause(); show(k); setHash();
          }
          function attachSeeking(track) {
            track.addEventListener("pointerdown", (e) => {
              e.preventDefault();
              track.setPointerCapture(e.pointerId);
              const left = track.getBoundingClientRect().left;
              seekToX(e.clientX - left);
              const move = (m) => seekToX(m.clientX - left);
              const up = () => { track.removeEventListener("pointermove", move); track.removeEventListener("pointerup", up); };
              track.addEventListener("pointermove", move);
              track.addEventListener("pointerup", up);
            });
          }
          function buildTimeline() {
            const c = clip(), box = $("timeline"), d = clipDuration(c);
            box.textContent = "";
            rows = [];
            $("timelineSection").hidden = c.nodes.length === 0;
            trackWidth = Math.max(240, Math.min(960, (box.clientWidth || 860) - LABEL - 18));
            const x = (t) => (d > 0 ? t / d : 0) * trackWidth;
            // The ruler: a tick per frame (labelled every few), usable to seek like any row.
            const ruler = document.createElement("div"); ruler.className = "tl-ruler";
            const rl = document.createElement("div"); rl.className = "tl-label"; rl.textContent = "frame";
            const rs = el("svg", { class: "tl-track", width: trackWidth, height: 22 });
            const every = Math.max(1, Math.ceil(c.numbers.length / (trackWidth / 36)));
            c.seconds.forEach((t, k) => {
              const long = k % every === 0;
              el("line", { x1: x(t), x2: x(t), y1: long ? 12 : 17, y2: 22, stroke: "#999" }, rs);
              if (long) el("text", { x: x(t) + 2, y: 10 }, rs).textContent = String(c.numbers[k]);
            });
            attachSeeking(rs);
            ruler.append(rl, rs); box.appendChild(ruler);
            const byId = {};
            for (const n of c.nodes) byId[n.id] = n;
            let group = null;
            for (const i of nodeOrder(c)) {
              const node = c.nodes[i];
              const g = groupOf(node, c);
              if (g !== group) {
                group = g;
                const header = document.createElement("div"); header.className = "tl-group"; header.textContent = g;
                box.appendChild(header);
              }
              const row = document.createElement("div");
              row.className = "tl-row"; row.setAttribute("role", "option"); row.tabIndex = -1;
              row.dataset.node = String(i); row.id = "tl-row-" + i;
              row.setAttribute("aria-selected", "false");
              const label = document.createElement("div"); label.className = "tl-label";
              label.style.paddingLeft = 6 + depthOf(node, byId) * 12 + "px";
              label.textContent = node.name;
              const kind = document.createElement("span"); kind.className = "kind"; kind.textContent = node.kind;
              label.appendChild(kind);
              label.title = g + " › " + node.name;
              const track = el("svg", { class: "tl-track", width: trackWidth, height: 20 });
              const keys = keyTimes(node);
              keys.forEach(([t, seg, name], k) => {
                const end = k + 1 < keys.length ? keys[k + 1][0] : null;
                let mark = null;
                if (end !== null && seg === 1) mark = el("rect", { x: x(t), y: 8, width: Math.max(1, x(end) - x(t)), height: 4, fill: "#6aa0e8" }, track);
                if (end !== null && seg === 2) mark = el("rect", { x: x(t), y: 7, width: Math.max(1, x(end) - x(t)), height: 6, fill: "#9b6ad8" }, track);
                if (end !== null && seg === 0) mark = el("line", { x1: x(t), x2: x(end), y1: 10, y2: 10, stroke: "#aaa", "stroke-dasharray": "2 2" }, track);
                // The segment names its easing on hover.
                if (mark && name) el("title", {}, mark).textContent = name;
              });
              for (const [t] of keys) el("polygon", { points: [[x(t), 5], [x(t) + 4, 10], [x(t), 15], [x(t) - 4, 10]].join(" "), fill: "#1d1d1f" }, track);
              attachSeeking(track);
              label.addEventListener("click", () => selectNode(i, true));
              track.addEventListener("pointerdown", () => selectNode(i, false));
              row.append(label, track);
              box.appendChild(row);
              rows.push(row);
            }
            const head = document.createElement("div"); head.id = "tl-playhead"; box.appendChild(head);
            const first = c.nodes.findIndex((n) => n.animated);
            selectNode(state.node !== null && state.node < c.nodes.length ? state.node : Math.max(0, first), false);
          }
          function selectNode(i, focus) {
            const c = clip();
            if (!c.nodes.length) { state.node = null; return; }
            state.node = Math.max(0, Math.min(c.nodes.length - 1, i));
            for (const row of rows) {
              const on = Number(row.dataset.node) === state.node;
              row.setAttribute("aria-selected", String(on)); row.tabIndex = on ? 0 : -1;
              if (on && focus) { row.focus(); }
            }
            $("timeline").setAttribute("aria-activedescendant", "tl-row-" + state.node);
            buildCurves();
          }
          $("timeline").addEventListener("keydown", (e) => {
            const c = clip();
            if (state.node === null) return;
            const at = rows.findIndex((r) => Number(r.dataset.node) === state.node);
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault(); e.stopPropagation();
              const next = rows[Math.max(0, Math.min(rows.length - 1, at + (e.key === "ArrowDown" ? 1 : -1)))];
              selectNode(Number(next.dataset.node), true);
              next.scrollIntoView({ block: "nearest" });
            } else if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && e.shiftKey) {
              // The selected node's next or previous keyframe.
              e.preventDefault(); e.stopPropagation();
              const now = c.seconds[state.index], eps = 0.5 / c.fps;
              const times = keyTimes(c.nodes[state.node]).map((k) => k[0]);
              const target = e.key === "ArrowRight" ? times.find((t) => t > now + eps) : [...times].reverse().find((t) => t < now - eps);
              if (target === undefined) return;
              let k = 0, best = Infinity;
              c.seconds.forEach((t, i) => { if (Math.abs(t - target) < best) { best = Math.abs(t - target); k = i; } });
              pause(); show(k); setHash();
            }
          });
          window.addEventListener("resize", () => { if (Math.abs(($("timeline").clientWidth - LABEL - 18) - trackWidth) > 40) buildTimeline(); });

          // ---- the selected node's curves, one graph per channel, with the value at the playhead ----
          function buildCurves() {
            playheads.length = 0;
            const c = clip(), box = $("curves");
            box.textContent = "";
            const node = state.node !== null ? c.nodes[state.node] : null;
            $("curvesSection").hidden = !node || node.curves.length === 0;
            const duration = clipDuration(c);
            if (node) {
              const where = node.nested ? " (in " + node.nested.instances.join(" › ") + ", as it plays in this clip)" : "";
              $("curvesOf").textContent = node.name + where;
              const channels = [["x", ["position.x"], " px"], ["y", ["position.y"], " px"], ["rotation", ["rotation"], "°"],
                                ["scale", ["scale.x", "scale.y"], ""], ["alpha", ["opacity"], ""]];
              // A nested node is graphed on the clip's time axis as its instance plays it; the last graph shows which
              // frame of its composition the instance shows (loops, holds and jumps at a glance).
              const speed = $("velocity").checked;
              for (const [title, names, unit] of channels) {
                let series = node.curves.filter((cv) => names.includes(cv.name));
                if (!series.length) continue;
                if (speed) graph(box, title + " velocity", series.map(velocity), duration, null, null, unit + "/s", true);
                else graph(box, title, series, duration, title === "alpha" ? [0, 1] : null, null, unit);
              }
              if (node.nested) {
                const times = node.curves.length ? node.curves[0].times : [];
                graph(box, "frame of " + node.nested.composition + " shown by " + node.nested.instances.join(" › "),
                      [{ name: "nested frame", times, values: node.nested.frames, keys: [] }], duration, null, null, "");
              }
            }
            const sbox = $("script");
            sbox.textContent = "";
            $("scriptSection").hidden = !c.script;
            if (c.script) {
              const series = c.script.lines.map((l) => ({ name: l.name, times: l.times, values: l.fractions, keys: [] }));
              graph(sbox, "fraction complete", series, duration, [0, 1], c.script.marks, "");
            }
            updatePlayheads();
          }
          // A curve's value at time t: its samples interpolated (null where the node is not shown).
          function valueAt(s, t) {
            const ts = s.times;
            if (!ts.length) return null;
            let k = 0;
            while (k + 1 < ts.length && ts[k + 1] <= t + 1e-9) k++;
            const a = s.values[k];
            if (a === null || k + 1 >= ts.length || ts[k] >= t - 1e-9) return a;
            const b = s.values[k + 1];
            if (b === null) return a;
            return a + (b - a) * (t - ts[k]) / (ts[k + 1] - ts[k]);
          }
          function updatePlayheads() {
            const c = clip();
            const t = c.seconds[state.index] || 0;
            for (const p of playheads) {
              p.head.setAttribute("x1", p.x(t)); p.head.setAttribute("x2", p.x(t));
              if (p.readout && p.hover === null) p.readout.textContent = describeAt(p, t, false);
            }
            const head = $("tl-playhead");
            if (head) {
              const d = clipDuration(c);
              head.style.left = LABEL + (d > 0 ? t / d : 0) * trackWidth + "px";
              head.style.height = $("timeline").scrollHeight + "px";
            }
          }

          function selectClip(i) {
            pause();
            state.clip = Math.max(0, Math.min(data.clips.length - 1, i));
            $("clip").value = String(state.clip);
            state.index = 0; state.position = 0; state.node = null;
            buildTimeline(); show(0);
          }

          function readHash() {
            const params = new URLSearchParams(location.hash.replace(/^#/, ""));
            const name = params.get("clip");
            if (name !== null) {
              const i = data.clips.findIndex((c) => c.name === name);
              if (i >= 0 && i !== state.clip) selectClip(i);
            }
            const frame = params.get("frame");
            if (frame !== null && frame !== "" && !isNaN(Number(frame))) {
              const numbers = clip().numbers, want = Number(frame);
              let best = 0;
              for (let k = 0; k < numbers.length; k++) if (Math.abs(numbers[k] - want) < Math.abs(numbers[best] - want)) best = k;
              pause(); show(best);
            }
            const bg = params.get("bg");
            if (bg) { if (bg === "checker") $("bg").value = "checker"; else { $("bg").value = "color"; $("bgcolor").value = "#" + bg.replace(/^#/, ""); } applyBackground(); }
          }

          function applyBackground() {
            const stage = $("stage");
            if ($("bg").value === "checker") { stage.className = "checker"; stage.style.background = ""; }
            else { stage.className = ""; stage.style.background = $("bgcolor").value; }
          }

          const click = (id, f) => $(id).addEventListener("click", (e) => { f(); e.currentTarget.blur(); });
          click("play", () => (state.playing ? pause() : play()));
          click("back", () => step(-1));
          click("forward", () => step(1));
          click("first", () => { pause(); show(0); setHash(); });
          click("last", () => { pause(); show(count() - 1); setHash(); });
          scrubber.addEventListener("input", () => { pause(); show(Number(scrubber.value)); setHash(); });
          $("clip").addEventListener("change", () => { selectClip(Number($("clip").value)); setHash(); });
          $("zoom").addEventListener("change", applyZoom);
          $("bg").addEventListener("change", applyBackground);
          $("bgcolor").addEventListener("input", () => { $("bg").value = "color"; applyBackground(); });
          $("onion").addEventListener("change", draw);
          $("velocity").addEventListener("change", buildCurves);
          window.addEventListener("resize", () => { if ($("zoom").value === "fit") applyZoom(); });
          window.addEventListener("hashchange", readHash);
          document.addEventListener("keydown", (e) => {
            const tag = (e.target && e.target.tagName) || "";
            const isSpace = e.key === " " || e.code === "Space";
            // Form fields keep their own keys; the scrubber moves itself with arrows/Home/End but space plays.
            if (tag === "SELECT" || (tag === "INPUT" && e.target.type !== "checkbox" && !(e.target.type === "range" && isSpace))) return;
            if (isSpace) { e.preventDefault(); state.playing ? pause() : play(); }
            else if (e.key === "ArrowLeft") { e.preventDefault(); step(-1); }
            else if (e.key === "ArrowRight") { e.preventDefault(); step(1); }
            else if (e.key === "Home") { e.preventDefault(); pause(); show(0); setHash(); }
            else if (e.key === "End") { e.preventDefault(); pause(); show(count() - 1); setHash(); }
          });
          api.play = play; api.pause = pause; api.show = show; api.selectClip = selectClip; api.selectNode = selectNode;
          api.isDrawn = isDrawn;
          api.timeline = { duration: () => clipDuration(clip()), width: () => trackWidth };
          api.current = () => ({ clip: clip().name, index: state.index, frame: clip().numbers[state.index], playing: state.playing });

          // The frame asked for is chosen now, before any picture has arrived; it is drawn as soon as its own are.
          progress();
          selectClip(0);
          readHash();
          if (data.sources) api.arrived();
        })();
        """#
}
