import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Nested movies on their own clock inside shorter or stopped parents (format.md §4.7 `keepsTime`): a Flump movie
/// one frame long holding an 80-frame movie, checked against pixi-flump-runtime run on the same library
/// (`Fixtures/flump-own/`), and an Animate-style clip that stops while its movie clip plays on.
final class NestedClockTests: XCTestCase {
    static let flump = fixturesDirectory.appendingPathComponent("flump-own/nested-clock")

    func testFlumpNestedMovieRunsOnItsOwnClockInsideAOneFrameParent() throws {
        let document = try Importer.importDocument(at: Self.flump.appendingPathComponent("export"))
        let clip = try XCTUnwrap(document.clip(named: "holder"))
        XCTAssertEqual(clip.duration, Frames(1))
        let sampler = PoseSampler(document: document)
        let golden = try XCTUnwrap(try loadJSON(Self.flump.appendingPathComponent("golden/holder.json")) as? [String: Any])
        let frames = try XCTUnwrap(golden["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 90)
        var checked = 0
        for frame in frames {
            let i = frame["i"] as! Int
            let layer = (frame["layers"] as! [[String: Any]])[0]
            let child = layer["child"] as! [String: Any]
            let expectedFrame = child["frame"] as! Int
            let arm = (child["layers"] as! [[String: Any]])[0]
            let pose = sampler.sample(clip: clip, playback: Frames(Double(i)), collectNodes: true)
            let holderState = try XCTUnwrap(pose.nodes.first { $0.childFrame != nil }, "frame \(i)")
            XCTAssertEqual(holderState.childFrame.map { Int($0.rounded(.down)) }, expectedFrame, "frame \(i)")
            // The bar's placement: translation of its pivot (loc) and its rotation (skew, radians), in holder space.
            let item = try XCTUnwrap(pose.items.first, "frame \(i)")
            // pixi-flump tweens its last keyframe towards the first (ActionScript's Layer.as holds it): skip it.
            guard expectedFrame != 79 else { continue }
            let pivot = item.transform.apply(Vector2(x: 2, y: 2))
            let x = 50 + (arm["x"] as! Double), y = 40 + (arm["y"] as! Double)
            // The port's clock runs about 0.0016 frame ahead (conformance.md): 0.5 px/frame → below 0.002 px.
            XCTAssertEqual(pivot.x, x, accuracy: 0.003, "frame \(i)")
            XCTAssertEqual(pivot.y, y, accuracy: 0.003, "frame \(i)")
            let angle = atan2(item.transform.b, item.transform.a)
            var d = (angle - (arm["skewY"] as! Double)).truncatingRemainder(dividingBy: 2 * .pi)
            if d > .pi { d -= 2 * .pi } else if d < -.pi { d += 2 * .pi }
            XCTAssertEqual(d, 0, accuracy: 1e-3, "frame \(i)")
            checked += 1
        }
        XCTAssertEqual(checked, 89)
    }

    func testTheFirstPlayIsTheSameWithAndWithoutKeepsTime() throws {
        // Within one play of the parent, `keepsTime` changes nothing (§4.7): only what follows a wrap or a stop.
        var document = try Importer.importDocument(at: Self.flump.appendingPathComponent("export"))
        let spinner = try XCTUnwrap(document.clip(named: "spinner"))
        let marked = PoseSampler(document: document)
        for c in document.compositions.indices {
            for n in document.compositions[c].nodes.indices {
                if case .composition(var instance)? = document.compositions[c].nodes[n].tracks.content?.keyframes.first?.value {
                    XCTAssertTrue(instance.keepsTime, "the importer marks a movie shown throughout its parent")
                    instance.keepsTime = false
                    document.compositions[c].nodes[n].tracks.content?.keyframes[0].value = .composition(instance)
                }
            }
        }
        let plain = PoseSampler(document: document)
        let holder = try XCTUnwrap(document.clip(named: "holder"))
        XCTAssertEqual(marked.sample(clip: holder, playback: .zero), plain.sample(clip: holder, playback: .zero))
        XCTAssertNotEqual(marked.sample(clip: holder, playback: Frames(10)), plain.sample(clip: holder, playback: Frames(10)))
        XCTAssertEqual(plain.sample(clip: holder, playback: Frames(10)), plain.sample(clip: holder, playback: .zero),
                       "without keepsTime the instance reappears at every wrap of the one-frame parent")
        for t in [0.0, 13, 79.5] {
            XCTAssertEqual(marked.sample(clip: spinner, time: Frames(t)), plain.sample(clip: spinner, time: Frames(t)))
        }
    }

    func testAStoppedClipsMovieClipPlaysOnAndItsJSONRoundTrips() throws {
        // Root: 3 frames, played once (loopCount 1); its one layer shows a 10-frame movie clip (keepsTime). After
        // the clip's last play the root rests on frame 2 while the movie clip goes on: frame (e mod 10).
        let json = #"""
        {"format":"keyframe","schemaVersion":1,"name":"t","frameRate":24,"root":"root",
         "units":{"angle":"degrees","colorOffset":"8-bit channel units (-255...255)","frameRate":"framesPerSecond","length":"pixels","time":"frames","yAxis":"down"},
         "source":{"files":[],"format":"betterTextureAtlas","tool":"test"},
         "assets":{"images":[{"id":"i","path":"i.png","pixelSize":{"width":1,"height":1},"resolution":1}],
                   "sprites":[{"id":"s","name":"s","image":"i","origin":{"x":0,"y":0},"region":{"x":0,"y":0,"width":1,"height":1},"rotated":false,"size":{"width":1,"height":1}}]},
         "clips":[{"name":"once","composition":"root","start":0,"duration":3,"loopCount":1}],
         "compositions":[
          {"id":"root","name":"root","duration":3,"nodes":[{"id":"holder","name":"holder","kind":"instance","tracks":{
            "content":[{"frame":0,"value":{"type":"composition","composition":"mc","firstFrame":0,"loop":"loop","clock":"independent","keepsTime":true}}]}}]},
          {"id":"mc","name":"mc","duration":10,"nodes":[{"id":"dot","name":"dot","kind":"instance","tracks":{
            "content":[{"frame":0,"value":{"type":"sprite","sprite":"s"}}],
            "position":[{"frame":0,"value":{"x":0,"y":0},"easing":{"type":"linear"}},{"frame":9,"value":{"x":90,"y":0},"easing":{"type":"hold"}}]}}]}],
         "diagnostics":[]}
        """#
        let document = try Document(jsonBytes: Array(json.utf8))
        let sampler = PoseSampler(document: document)
        let clip = document.clips[0]
        for e in [0.0, 2, 3, 7, 12.5] {
            let x = try XCTUnwrap(sampler.sample(clip: clip, playback: Frames(e)).items.first?.transform.tx)
            let expected = min(e.truncatingRemainder(dividingBy: 10), 9) * 10
            XCTAssertEqual(x, expected, accuracy: 1e-9, "playback \(e)")
        }
        XCTAssertEqual(PoseSampler.clipTime(clip, playback: 7), 2)
        let bytes = document.jsonBytes()
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains(#""keepsTime" : true"#))
        XCTAssertEqual(try Document(jsonBytes: bytes), document)
    }

    /// An Animate button-like symbol: labels `up`, `over`, `down` are one frame each, and each state shows its own
    /// movie clip (15, 20 and 25 frames; a sprite that moves 2 px per frame). Animate plays the movie clip while the
    /// playhead stays on the state; the labelled clip played for longer than its one frame must too, and a clip over
    /// the whole timeline is offered besides the labelled ones.
    func testAnimateMovieClipsPlayWhileTheirOneFrameStateHolds() throws {
        func movieClip(_ name: String, frames: Int) -> String {
            let keys = (0..<frames).map { i in
                #"{"I":\#(i),"DU":1,"E":[{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,\#(2 * i),0,0,1]}}]}"#
            }.joined(separator: ",")
            return #"{"SN":"\#(name)","TL":{"L":[{"LN":"art","FR":[\#(keys)]}]}}"#
        }
        func state(_ index: Int, _ label: String, _ symbol: String) -> String {
            #"{"I":\#(index),"DU":1,"N":"\#(label)","E":[{"SI":{"SN":"\#(symbol)","ST":"MC","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,100,0,0,1]}}]}"#
        }
        let animation = AnimateFixture.animation(
            frames: "[" + [state(0, "up", "glowUp"), state(1, "over", "glowOver"), state(2, "down", "glowDown")]
                .joined(separator: ",") + "]",
            symbols: [movieClip("glowUp", frames: 15), movieClip("glowOver", frames: 20), movieClip("glowDown", frames: 25)]
                .joined(separator: ","))
        let fixture = try AnimateFixture(animation: animation)
        addTeardownBlock { try? FileManager.default.removeItem(at: fixture.folder) }
        let document = try Importer.importDocument(at: fixture.folder)
        XCTAssertEqual(document.clips.map(\.name), ["up", "over", "down", document.name])
        XCTAssertEqual(document.clips.last?.duration, Frames(3), "the whole-timeline clip")
        let sampler = PoseSampler(document: document)
        let over = try XCTUnwrap(document.clip(named: "over"))
        XCTAssertEqual(over.duration, Frames(1))
        // Played for 30 frames, `over` stays on its frame while glowOver (20 frames) runs and wraps: x = 100 + 2·k.
        // Its instance appeared at the state's frame 1 (the clip's start), so at playback e it is e frames old.
        for e in [0, 1, 7, 19, 20, 27] {
            let x = try XCTUnwrap(sampler.sample(clip: over, playback: Frames(Double(e))).items.first?.transform.tx)
            XCTAssertEqual(x, 100 + 2 * Double(e % 20), accuracy: 1e-9, "playback \(e)")
        }
        // The whole-timeline clip loops over the three states: each state's movie clip starts again when its state
        // comes round (the playhead leaves its span), as in Animate.
        let whole = try XCTUnwrap(document.clips.last)
        for e in [0, 1, 2, 3, 4] {
            let x = try XCTUnwrap(sampler.sample(clip: whole, playback: Frames(Double(e))).items.first?.transform.tx)
            XCTAssertEqual(x, 100, accuracy: 1e-9, "playback \(e)")
        }
    }
}
