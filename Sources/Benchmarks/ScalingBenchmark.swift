import KeyframeEngine
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframeRaster
import KeyframeRender

/// Measures how costs grow with the size of an input, where a quadratic cost would let one file stall a build:
/// DragonBones skeletons of 1,000, 5,000 and 10,000 bones (chains 100 bones deep) imported and drawn, a chain of
/// 100,000 bones refused by the model's nesting budget (``ModelLimits``), and `play` ticks of scripts with 10,000
/// and 100,000 animators all started at once.
///
/// Every figure is the fastest of the repetitions, in the calling thread's CPU time. Linear growth shows as a
/// constant cost per bone (per animator); the report prints those and the ratios the trust issue sets as goals
/// (100,000 animators per tick ≤ 10× 10,000).
public enum ScalingBenchmark {
    /// One size measured.
    public struct Row: Sendable {
        /// Bones, or animators.
        public var count: Int
        /// Thread CPU seconds: import and one frame drawn (bones), or one tick (animators).
        public var seconds: Double
        /// Animators only: reading the script, and a tick after the first (no steps left to apply).
        public var reading: Double = 0
        public var laterTick: Double = 0
    }

    /// The timings of one run.
    public struct Report: Sendable, CustomStringConvertible {
        /// Import plus one 256 × 256 frame of the skeleton, per bone count.
        public var bones: [Row]
        /// How long the 100,000-bone chain took to be refused, and the error it gave.
        public var deepChainRefusal: Double
        public var deepChainError: String
        /// `play` per animator count: reading the script, the first tick (every animator starting), a later tick.
        public var playTicks: [Row]

        public var description: String {
            func ms(_ s: Double) -> String { String(Double(Int((s * 1e4).rounded())) / 10) + " ms" }
            func us(_ s: Double) -> String { String(Double(Int((s * 1e7).rounded())) / 10) + " µs" }
            var text = "scaling benchmark (thread CPU, fastest run)\n"
            for row in bones {
                text += "  \(row.count) bones: import + one frame \(ms(row.seconds)), \(us(row.seconds / Double(row.count))) per bone\n"
            }
            text += "  100000-bone chain refused in \(ms(deepChainRefusal)): \(deepChainError)\n"
            for row in playTicks {
                let n = Double(row.count)
                text += "  \(row.count) animators: reading the script \(ms(row.reading)) (\(us(row.reading / n)) each), "
                    + "first tick \(ms(row.seconds)) (\(us(row.seconds / n)) each), "
                    + "a later tick \(ms(row.laterTick)) (\(us(row.laterTick / n)) each)\n"
            }
            if playTicks.count == 2 {
                func ratio(_ a: Double, _ b: Double) -> String { String(Double(Int(a / b * 100)) / 100) + "×" }
                text += "  \(playTicks[1].count) / \(playTicks[0].count) animators (goal for a tick ≤ 10×): first tick "
                    + ratio(playTicks[1].seconds, playTicks[0].seconds) + ", later tick "
                    + ratio(playTicks[1].laterTick, playTicks[0].laterTick) + ", reading "
                    + ratio(playTicks[1].reading, playTicks[0].reading) + "\n"
            }
            return text
        }
    }

    /// Runs every measurement `repetitions` times and keeps the fastest of each.
    public static func run(boneCounts: [Int] = [1_000, 5_000, 10_000], animatorCounts: [Int] = [10_000, 100_000],
                           repetitions: Int = 3) throws -> Report {
        var bones: [Row] = []
        for count in boneCounts {
            var best = Double.infinity
            for _ in 0..<repetitions { best = min(best, try timeSkeleton(bones: count)) }
            bones.append(Row(count: count, seconds: best))
        }
        let files = skeletonFiles(bones: 100_000, chain: 100_000)
        let started = BenchmarkClock.threadCPU()
        var refusal = "accepted (expected a refusal)"
        do {
            _ = try Importer.importDocument(files: files, main: "chain_ske.json",
                                            options: ImportOptions(allowMissingImages: true))
        } catch {
            refusal = "\(error)"
        }
        let refusalTime = BenchmarkClock.threadCPU() - started
        var ticks: [Row] = []
        for count in animatorCounts {
            var best = Row(count: count, seconds: .infinity, reading: .infinity, laterTick: .infinity)
            for _ in 0..<repetitions {
                let run = try timePlay(animators: count)
                best.reading = min(best.reading, run.reading)
                best.seconds = min(best.seconds, run.firstTick)
                best.laterTick = min(best.laterTick, run.laterTick)
            }
            ticks.append(best)
        }
        return Report(bones: bones, deepChainRefusal: refusalTime, deepChainError: refusal, playTicks: ticks)
    }

    /// Imports a skeleton of `bones` bones and draws its first frame; returns the thread CPU time.
    static func timeSkeleton(bones: Int) throws -> Double {
        let files = skeletonFiles(bones: bones, chain: 100)
        let started = BenchmarkClock.threadCPU()
        let document = try Importer.importDocument(files: files, main: "chain_ske.json",
                                                   options: ImportOptions(allowMissingImages: true))
        guard let clip = document.clips.first else { throw BenchmarkError("the skeleton has no clip") }
        var bitmaps: [String: Bitmap] = [:]
        for image in document.assets.images { bitmaps[image.id] = Bitmap(width: 64, height: 64) }
        let library = AtlasLibrary(document: document, bitmaps: bitmaps)
        let scene = RenderScene(document: document, library: library)
        let framing = Framing(scene: Rect(x: -500, y: -500, width: 1000, height: 1000), size: (256, 256))
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        let pose = scene.sampler.sample(clip: clip, time: Frames(3))
        renderer.render(pose, library: library, framing: framing, background: .transparent, into: &frame)
        return BenchmarkClock.threadCPU() - started
    }

    /// A DragonBones export in memory: `bones` bones in chains of `chain` bones, each with a slot showing one image,
    /// and one animation turning the first bone of every chain.
    static func skeletonFiles(bones: Int, chain: Int) -> [String: [UInt8]] {
        var boneList: [JSONValue] = []
        var slots: [JSONValue] = []
        var skinSlots: [JSONValue] = []
        var timelines: [JSONValue] = []
        boneList.reserveCapacity(bones)
        for index in 0..<bones {
            var bone: JSONObject = ["name": .string("b\(index)")]
            if index % chain != 0 {
                bone["parent"] = .string("b\(index - 1)")
                bone["transform"] = ["x": 2, "skX": 1, "skY": 1]
            } else {
                timelines.append(["name": .string("b\(index)"), "rotateFrame": [
                    ["duration": 12, "rotate": 0], ["duration": 12, "rotate": 30], ["duration": 0, "rotate": 0],
                ]])
            }
            boneList.append(.object(bone))
            slots.append(["name": .string("s\(index)"), "parent": .string("b\(index)")])
            skinSlots.append(["name": .string("s\(index)"), "display": [["name": "part", "type": "image"]]])
        }
        let skeleton: JSONValue = [
            "name": "chain", "version": "5.5", "frameRate": 24,
            "armature": [[
                "name": "chain", "type": "Armature", "frameRate": 24,
                "bone": .array(boneList), "slot": .array(slots), "skin": [["name": "", "slot": .array(skinSlots)]],
                "animation": [["name": "turn", "duration": 24, "playTimes": 0, "bone": .array(timelines)]],
            ]],
        ]
        let atlas: JSONValue = [
            "name": "chain", "imagePath": "chain_tex.png", "width": 64, "height": 64,
            "SubTexture": [["name": "part", "x": 0, "y": 0, "width": 8, "height": 4]],
        ]
        return ["chain_ske.json": JSONWriter.writeCompact(skeleton), "chain_tex.json": JSONWriter.writeCompact(atlas)]
    }

    /// Reads a script whose `animators` animators all start at 0 and plays two ticks; returns the thread CPU time of
    /// reading it (parsing and checking), of the first tick (every start step applied) and of the second.
    static func timePlay(animators: Int) throws -> (reading: Double, firstTick: Double, laterTick: Double) {
        var list: [JSONValue] = []
        var steps: [JSONValue] = []
        list.reserveCapacity(animators)
        steps.reserveCapacity(animators)
        for index in 0..<animators {
            list.append(["name": .string("a\(index)"), "duration": 1, "timing": "easeInEaseOut",
                         "target": ["from": 0, "to": .number(Double(index))]])
            steps.append(["at": 0, "animator": .string("a\(index)"), "action": "start"])
        }
        let bytes = JSONWriter.writeCompact([
            "format": "keyframe-script", "version": 1, "animators": .array(list), "steps": .array(steps),
        ])
        let started = BenchmarkClock.threadCPU()
        let script = try AnimatorScript(jsonBytes: bytes, file: "scaling.json")
        let runner = try ScriptRunner(script: script) { _, _ in
            throw BenchmarkError("the scaling script has no clip targets")
        }
        let playback = runner.playback(fps: 60, until: Seconds(2.0 / 60))
        let read = BenchmarkClock.threadCPU()
        guard let first = try playback.next(), first.animators.count == animators else {
            throw BenchmarkError("the script played no tick")
        }
        let firstDone = BenchmarkClock.threadCPU()
        guard let later = try playback.next(), later.animators.count == animators else {
            throw BenchmarkError("the script played one tick")
        }
        let laterDone = BenchmarkClock.threadCPU()
        return (read - started, firstDone - read, laterDone - firstDone)
    }
}
