import Foundation

/// Times the official runtimes parsing the same bytes Keyframe converts, inside node (test support for
/// ``ConversionBenchmark``; not a product).
///
/// The runtimes are someone else's code and are never part of the project: DragonBonesJS's core
/// (`Egret/4.x/out/dragonBones.js` of DragonBones/DragonBonesJS @ 64b6c69) and pixi-flump-runtime's `bin/pixi-flump.js`
/// (jackwlee01/pixi-flump-runtime @ f8caecb), fetched into /tmp as `../shared/tools/oracles/README.md` says. The
/// driver below (ours) loads them with `vm.runInThisContext` the way the oracles do, supplies the few renderer hooks
/// DragonBones' factory asks for as no-ops, and times, per export, in node's own process: reading the files,
/// `JSON.parse`, then `BaseFactory.parseDragonBonesData` and `parseTextureAtlasData` (DragonBones) or
/// `FlumpLibrary.create` (Flump) — or `JSON.parse` alone for Animate's files. The fastest of the repetitions is kept,
/// in wall and CPU time (`process.cpuUsage`).
enum RuntimeParse {
    /// What node is asked to time for one export.
    struct Job: Encodable {
        /// `json`, `dragonbones` or `flump`.
        var kind: String
        /// Every file read: for `json` each is parsed; for `dragonbones` the skeleton first, then the atlases; for
        /// `flump` the library.
        var files: [String]
    }

    /// Node's figures for one export (seconds), or why the runtime could not parse it.
    struct Timing: Decodable {
        var wall: Double?
        var cpu: Double?
        var error: String?
    }

    private struct Request: Encodable {
        var dragonBones: String?
        var flump: String?
        var repetitions: Int
        var jobs: [Job]
    }

    /// Runs node on `jobs`; `dragonBones` and `flump` are the runtimes' files (needed only by jobs of those kinds).
    static func run(_ jobs: [Job], dragonBones: String?, flump: String?, repetitions: Int, node: String = "node")
        throws(BenchmarkError) -> [Timing]
    {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("keyframe-runtime-parse-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let driver = scratch.appendingPathComponent("driver.js"), request = scratch.appendingPathComponent("request.json")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            try Data(driverSource.utf8).write(to: driver)
            try JSONEncoder().encode(Request(dragonBones: dragonBones, flump: flump, repetitions: repetitions, jobs: jobs))
                .write(to: request)
        } catch {
            throw BenchmarkError("cannot prepare the runtime benchmark in \(scratch.path): \(error)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [node, driver.path, request.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw BenchmarkError("cannot run \(node): \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(node) failed (status \(process.terminationStatus)): \(message)")
        }
        do { return try JSONDecoder().decode([Timing].self, from: data) } catch {
            throw BenchmarkError("\(node) printed no timings: \(String(decoding: data, as: UTF8.self).prefix(300))")
        }
    }

    /// The node program. It reads the request, loads the runtimes the jobs need, and prints one timing per job.
    static let driverSource = #"""
    "use strict";
    // Times the official runtimes parsing an export's files, for `keyframe bench convert` (Keyframe's own driver).
    const fs = require("fs");
    const vm = require("vm");
    const request = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

    function readText(file) {
        let text = fs.readFileSync(file, "utf8");
        return text.charCodeAt(0) === 0xFEFF ? text.slice(1) : text;
    }

    let dragonBones = null;
    function loadDragonBones() {
        if (dragonBones) return dragonBones;
        let code = fs.readFileSync(request.dragonBones, "utf8");
        // A renderer bundle: keep the engine-independent modules in front of the first renderer module.
        const mark = /\n\s*var (Egret|Pixi|Phaser|Hilo|Cocos)\w*TextureAtlasData = /.exec(code);
        if (mark) code = code.slice(0, code.lastIndexOf("\nvar dragonBones;", mark.index));
        const info = console.info;
        console.info = () => {};
        vm.runInThisContext(code, { filename: request.dragonBones });
        const db = globalThis.dragonBones;
        class AtlasData extends db.TextureAtlasData {
            static toString() { return "[class bench.AtlasData]"; }
            createTexture() { return db.BaseObject.borrowObject(TextureData); }
        }
        class TextureData extends db.TextureData {
            static toString() { return "[class bench.TextureData]"; }
        }
        const events = { hasDBEventListener() { return false; }, dispatchDBEvent() {}, addDBEventListener() {},
                         removeDBEventListener() {} };
        class Factory extends db.BaseFactory {
            constructor() {
                super(null);
                this._dragonBones = new db.DragonBones(events);
            }
            _buildTextureAtlasData(data) { return data ? data : db.BaseObject.borrowObject(AtlasData); }
            _buildArmature() { throw new Error("not used"); }
            _buildSlot() { throw new Error("not used"); }
        }
        const factory = new Factory();
        console.info = info;
        dragonBones = { db, factory };
        return dragonBones;
    }

    let flump = null;
    function loadFlump() {
        if (flump) return flump;
        let code = fs.readFileSync(request.flump, "utf8");
        const hook = "PixiFlumpMain.main();";
        const at = code.lastIndexOf(hook);
        if (at < 0) throw new Error("unexpected bundle layout: " + request.flump);
        code = code.slice(0, at) + "$global.__keyframeBench = flump_library_FlumpLibrary;\n" + code.slice(at);
        const stub = function () {};
        globalThis.PIXI = { AbstractFilter: stub, Filter: stub, Container: stub, Sprite: stub, Graphics: stub,
                            Texture: stub, BaseTexture: stub, Rectangle: stub, Point: stub,
                            ticker: { shared: { add() {}, remove() {} } }, loaders: { Loader: stub } };
        vm.runInThisContext(code, { filename: request.flump });
        flump = globalThis.__keyframeBench;
        return flump;
    }

    // One parse of a job's files; returns something so nothing is optimised away.
    function parseOnce(job, round) {
        if (job.kind === "json") return job.files.map((f) => JSON.parse(readText(f)));
        if (job.kind === "dragonbones") {
            const { factory } = loadDragonBones();
            const name = "bench" + round;
            const data = factory.parseDragonBonesData(JSON.parse(readText(job.files[0])), name);
            if (data === null) throw new Error("DragonBonesJS rejected the skeleton (version not supported)");
            for (const file of job.files.slice(1)) factory.parseTextureAtlasData(JSON.parse(readText(file)), null, name);
            return data;
        }
        if (job.kind === "flump") {
            const library = loadFlump();
            const json = JSON.parse(readText(job.files[0]));
            // Early-2013 libraries keep their atlases at the top; the runtime reads textureGroups (as the oracle adapts).
            if (!json.textureGroups && Array.isArray(json.atlases)) {
                json.textureGroups = [{ scaleFactor: 1, atlases: json.atlases.map((a) => ({ file: a.file,
                    textures: a.textures.map((t) => ({ symbol: t.symbol, rect: t.rect,
                        origin: t.origin || (t.offset ? [-t.offset[0], -t.offset[1]] : [0, 0]) })) })) }];
            }
            return library.create(json, 1.0);
        }
        throw new Error("unknown job kind " + job.kind);
    }

    function cleanUp(job, round) {
        if (job.kind === "dragonbones") loadDragonBones().factory.removeDragonBonesData("bench" + round, true);
    }

    const results = [];
    let round = 0;
    for (const job of request.jobs) {
        try {
            let wall = Infinity, cpu = Infinity;
            // One untimed run warms the parser up (node compiles hot code on the fly).
            for (let i = 0; i <= request.repetitions; ++i) {
                round += 1;
                const cpuStart = process.cpuUsage();
                const start = process.hrtime.bigint();
                parseOnce(job, round);
                const seconds = Number(process.hrtime.bigint() - start) / 1e9;
                const used = process.cpuUsage(cpuStart);
                cleanUp(job, round);
                if (i > 0) {
                    wall = Math.min(wall, seconds);
                    cpu = Math.min(cpu, (used.user + used.system) / 1e6);
                }
            }
            results.push({ wall, cpu });
        } catch (e) {
            results.push({ error: String(e && e.message || e) });
        }
    }
    process.stdout.write(JSON.stringify(results));
    """#
}
