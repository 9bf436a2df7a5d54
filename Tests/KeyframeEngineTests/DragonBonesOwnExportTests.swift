import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Small DragonBones exports written here to pin one behaviour each, compared frame by frame with what the official
/// toolchain computes for them, exactly as `DragonBonesGoldenTests` compares the corpus. Each fixture folder holds
/// `export/` (our file) and `golden/` (the output of `../shared/tools/oracles/db_oracle.js`, DragonBonesJS 5.7, on it —
/// for 2.x data after `db_upconvert.js`, DragonBones/Tools' 2.x→4.5→5.5 conversion; see the folder's `README.md`).
final class DragonBonesOwnExportTests: XCTestCase {
    static let folder = fixturesDirectory.appendingPathComponent("dragonbones-own")

    /// Binary exports converted from our own by DragonBones/Tools (`Fixtures/dragonbones-binary/README.md`), with
    /// DragonBonesJS's output for the binary files.
    static let binaryFolder = fixturesDirectory.appendingPathComponent("dragonbones-binary")

    func check(_ name: String, in folder: URL = DragonBonesOwnExportTests.folder) throws {
        let sample = folder.appendingPathComponent(name)
        let maxima = try DragonBonesGoldenTests.compare(sample.appendingPathComponent("golden"),
                                                        skeleton: sample.appendingPathComponent("export"))
        print("\(name): \(maxima)")
        XCTAssertGreaterThan(maxima.frames, 0)
        XCTAssertLessThanOrEqual(maxima.position, 0.01, "\(maxima)")
        XCTAssertLessThanOrEqual(maxima.angle, 0.01, "\(maxima)")
        XCTAssertEqual(maxima.displayMismatches, 0, "\(maxima)")
        XCTAssertEqual(maxima.orderMismatches, 0, "\(maxima)")
        XCTAssertLessThanOrEqual(maxima.color, 1e-6, "\(maxima)")
        XCTAssertLessThanOrEqual(maxima.vertex, 0.01, "\(maxima)")
    }

    /// 2.3 global transforms whose skew is 340° (the tools: −20°), −180° (the tools: +180°), 359°/−1° around 0/360,
    /// `tweenRotate` ±1, and a child whose parent turns through ±180°: the up-conversion splits rotation and skew as
    /// `rotate = normalizeDegree(skY)`, `skew = normalizeDegree(skX − skY)`, and the runtime tweens the skew straight.
    func testLegacyRotationAndSkewTweensTurnAsTheToolchainTurnsThem() throws {
        try check("db2.3-turns")
    }

    /// `check(name)`, then the export compared frame by frame with its runtime golden, child armatures included.
    private func checkedGolden(_ name: String) throws -> DragonBonesGoldenTests.Maxima {
        try check(name)
        return try DragonBonesGoldenTests.compare(Self.folder.appendingPathComponent("\(name)/golden"),
                                                  skeleton: Self.folder.appendingPathComponent("\(name)/export"))
    }

    /// Which animation a child armature plays (DragonBonesJS 5.7): every child shown when the parent's animation
    /// starts plays its animation of the same name (`talk`, `walk`), fading into it when it has one (`walk` fades
    /// over 0.25 s: its first frame is held, then it plays, also across the parent's loop); a child shown later
    /// plays its default (`idle`, although it has `walk`); without a same-named animation the display's `actions`
    /// (`blink`) or the slot's (`nod`) decide; a slot frame's action (`nod` at 10) and a bone frame's action (`talk`
    /// at 8, on the slot of that bone) restart it, one frame in (the runtime advances the child in that tick).
    func testChildArmaturesPlayWhatTheRuntimePlays() throws {
        let maxima = try checkedGolden("db5.5-child-armatures")
        XCTAssertGreaterThan(maxima.childFrames, 200, "\(maxima)")
    }

    /// The same rules through the 3.0 up-conversion (the runtime plays what DragonBones/Tools makes of the file): a
    /// child in a slot plays the parent's animation name (`talk`, fading in over 3 frames) or its first animation
    /// (`idle`; 3.0 data has no default action), and a timeline frame's `action` plays `blink` in the slot of that
    /// timeline's name.
    func testChildArmaturesOfLegacyDataPlayWhatTheRuntimePlays() throws {
        let maxima = try checkedGolden("db3.0-child-armatures")
        XCTAssertGreaterThan(maxima.childFrames, 50, "\(maxima)")
    }

    /// A 60 fps document whose armatures run at 24 fps (the parent) and 30 fps (the child in its slot): the runtime
    /// was sampled at the parent's 24 fps, and each of its frames is compared at the same moment in seconds (2.5
    /// document frames per runtime frame), the child armature included.
    func testArmaturesAtTheirOwnRatesAreComparedInSeconds() throws {
        let maxima = try checkedGolden("db5.5-armature-rates")
        XCTAssertEqual(maxima.childFrames, 49 + 25, "\(maxima)")
    }

    /// `.dbbin` files read as DragonBonesJS reads them: the waver's weighted mesh, its deform (FFD) timeline, curves,
    /// display, colour and z-order timelines and IK; the child armatures' play actions from the armature's action
    /// list, display actions, inherited names and fades.
    func testBinaryExportsMatchTheRuntimeReadingThem() throws {
        try check("waver", in: Self.binaryFolder)
        try check("child-armatures", in: Self.binaryFolder)
        let waver = try Importer.importDocument(at: Self.binaryFolder.appendingPathComponent("waver/export"))
        XCTAssertEqual(waver.assets.meshes.count, 1)
        XCTAssertNotNil(waver.assets.meshes.first?.weights)
        XCTAssert(waver.compositions.contains { $0.nodes.contains { $0.tracks.deform != nil } })
        XCTAssertFalse(waver.diagnostics.contains { $0.code.hasPrefix("binary-") }, "\(waver.diagnostics)")
    }
}
