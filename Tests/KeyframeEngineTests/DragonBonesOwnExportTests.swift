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

    func check(_ name: String) throws {
        let sample = Self.folder.appendingPathComponent(name)
        let maxima = try DragonBonesGoldenTests.compare(sample.appendingPathComponent("golden"),
                                                        skeleton: sample.appendingPathComponent("export"))
        print("\(name): \(maxima)")
        XCTAssertGreaterThan(maxima.frames, 0)
        XCTAssertLessThanOrEqual(maxima.position, 0.01, "\(maxima)")
        XCTAssertLessThanOrEqual(maxima.angle, 0.01, "\(maxima)")
        XCTAssertEqual(maxima.displayMismatches, 0, "\(maxima)")
        XCTAssertEqual(maxima.orderMismatches, 0, "\(maxima)")
    }

    /// 2.3 global transforms whose skew is 340° (the tools: −20°), −180° (the tools: +180°), 359°/−1° around 0/360,
    /// `tweenRotate` ±1, and a child whose parent turns through ±180°: the up-conversion splits rotation and skew as
    /// `rotate = normalizeDegree(skY)`, `skew = normalizeDegree(skX − skY)`, and the runtime tweens the skew straight.
    func testLegacyRotationAndSkewTweensTurnAsTheToolchainTurnsThem() throws {
        try check("db2.3-turns")
    }
}
