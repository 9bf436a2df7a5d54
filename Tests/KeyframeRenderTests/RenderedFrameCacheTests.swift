import Dispatch
import Foundation
import KeyframeEngine
import KeyframeModel
@testable import KeyframeRender
import XCTest

/// Frames are found again by their poses, compared whole: equal poses give the bytes stored for them, a pose that
/// differs anywhere is drawn again, and workers meeting the same frame at once draw it once.
final class RenderedFrameCacheTests: XCTestCase {
    private static func layers(_ x: Double, mesh: [Vector2]? = nil, path: String = "root/a") -> [RenderedFrameCache.Layer] {
        var pose = Pose()
        pose.items = [Pose.Item(sprite: "s", transform: Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: 2),
                                color: .identity, blendMode: .normal, masks: [], path: path,
                                mesh: mesh.map { Pose.Mesh(positions: $0, uvs: $0, triangles: [0, 1, 2]) })]
        return [RenderedFrameCache.Layer(scene: 0, pose: pose)]
    }

    private func claim(_ found: RenderedFrameCache.Found, file: StaticString = #filePath, line: UInt = #line)
        -> RenderedFrameCache.Claim?
    {
        guard case .yours(let claim) = found else {
            XCTFail("expected to draw the frame", file: file, line: line)
            return nil
        }
        return claim
    }

    func testEqualPosesGetTheStoredBytesAndAnyDifferenceIsDrawnAgain() throws {
        let cache = RenderedFrameCache()
        let first = try XCTUnwrap(claim(cache.look(up: Self.layers(5))))
        cache.fulfil(first, with: RenderedFrameCache.Frame(png: [1, 2, 3], thumbnail: nil))
        guard case .drawn(let again) = cache.look(up: Self.layers(5)) else { return XCTFail("equal poses are drawn once") }
        XCTAssertEqual(again.png, [1, 2, 3])
        // Differences the hash does not look at are still told apart by comparing the poses whole.
        let square = [Vector2(x: 0, y: 0), Vector2(x: 1, y: 0), Vector2(x: 1, y: 1)]
        var moved = square
        moved[2].y = 1.0000001
        XCTAssertNotNil(claim(cache.look(up: Self.layers(5, path: "root/b"))))
        XCTAssertNotNil(claim(cache.look(up: Self.layers(5.000000001))))
        let meshed = try XCTUnwrap(claim(cache.look(up: Self.layers(5, mesh: square))))
        cache.fulfil(meshed, with: RenderedFrameCache.Frame(png: [4], thumbnail: nil))
        XCTAssertNotNil(claim(cache.look(up: Self.layers(5, mesh: moved))), "a mesh vertex moved: another frame")
    }

    func testAnAbandonedClaimIsDrawnByTheNextWorker() throws {
        let cache = RenderedFrameCache()
        let first = try XCTUnwrap(claim(cache.look(up: Self.layers(1))))
        cache.abandon(first)
        XCTAssertNotNil(claim(cache.look(up: Self.layers(1))))
    }

    func testOldestFramesAreForgottenBeyondTheLimit() throws {
        let cache = RenderedFrameCache(byteLimit: 1_000)
        for x in 0..<3 {
            let claimed = try XCTUnwrap(claim(cache.look(up: Self.layers(Double(x)))))
            cache.fulfil(claimed, with: RenderedFrameCache.Frame(png: [UInt8](repeating: 0, count: 400), thumbnail: nil))
        }
        XCTAssertNotNil(claim(cache.look(up: Self.layers(0))), "the oldest frame is forgotten")
        guard case .drawn = cache.look(up: Self.layers(2)) else { return XCTFail("the newest frame is kept") }
    }

    /// Workers asking for the same frames at the same time draw each one once and all get its bytes.
    func testConcurrentWorkersDrawEachFrameOnce() {
        let cache = RenderedFrameCache()
        let drawn = Tally()
        let wrong = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<12 {
                let x = Double((worker + round) % 6)
                switch cache.look(up: Self.layers(x)) {
                case .drawn(let frame):
                    if frame.png != [UInt8(x)] { wrong.add() }
                case .yours(let claim):
                    drawn.add()
                    usleep(2_000)  // drawing takes a while: others meet the frame meanwhile
                    cache.fulfil(claim, with: RenderedFrameCache.Frame(png: [UInt8(x)], thumbnail: nil))
                }
            }
        }
        XCTAssertEqual(drawn.value, 6)
        XCTAssertEqual(wrong.value, 0)
    }
}

/// A count shared by concurrent workers.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
