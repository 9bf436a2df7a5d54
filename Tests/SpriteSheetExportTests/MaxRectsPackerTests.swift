import KeyframeExport
import KeyframeTestSupport
import XCTest

/// The packer's invariants on seeded random sizes: every item inside its page, no two overlapping, the same result
/// on every run, several pages when one cannot hold everything.
final class MaxRectsPackerTests: XCTestCase {
    private func randomItems(_ count: Int, seed: UInt64, maximum: Int = 120) -> [MaxRectsPacker.Item] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            MaxRectsPacker.Item(width: Int.random(in: 1...maximum, using: &generator),
                                height: Int.random(in: 1...maximum, using: &generator))
        }
    }

    /// Fails on an item outside its page or overlapping another on the same page.
    private func assertValid(_ result: MaxRectsPacker.Result, _ items: [MaxRectsPacker.Item], maximumSide: Int,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.placements.count, items.count, file: file, line: line)
        var rects: [(page: Int, x: Int, y: Int, w: Int, h: Int)] = []
        for (item, placement) in zip(items, result.placements) {
            let (w, h) = placement.rotated ? (item.height, item.width) : (item.width, item.height)
            let page = result.pages[placement.page]
            XCTAssert(page.width <= maximumSide && page.height <= maximumSide, "page \(page)", file: file, line: line)
            XCTAssert(placement.x >= 0 && placement.y >= 0 && placement.x + w <= page.width
                      && placement.y + h <= page.height, "\(placement) outside \(page)", file: file, line: line)
            rects.append((placement.page, placement.x, placement.y, w, h))
        }
        for i in rects.indices {
            for j in rects.indices where j > i && rects[i].page == rects[j].page {
                let (a, b) = (rects[i], rects[j])
                let apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y
                XCTAssert(apart, "items \(i) and \(j) overlap: \(a) \(b)", file: file, line: line)
            }
        }
    }

    func testEveryHeuristicPacksWithoutOverlap() throws {
        let items = randomItems(80, seed: 7)
        for heuristic in MaxRectsPacker.Heuristic.allCases {
            var packer = MaxRectsPacker(maximumSide: 2048)
            packer.heuristics = [heuristic]
            let result = try packer.pack(items)
            XCTAssertEqual(result.heuristic, heuristic)
            XCTAssertEqual(result.pages.count, 1)
            assertValid(result, items, maximumSide: 2048)
            // Dense enough to be worth having: the items cover most of the page.
            let used = items.reduce(0) { $0 + $1.width * $1.height }
            XCTAssertGreaterThan(Double(used) / Double(result.area), 0.7, "\(heuristic): \(result.pages)")
        }
    }

    func testBestOfAllHeuristicsIsNoLargerThanAnyOne() throws {
        let items = randomItems(60, seed: 11)
        let best = try MaxRectsPacker(maximumSide: 2048).pack(items)
        for heuristic in MaxRectsPacker.Heuristic.allCases {
            var packer = MaxRectsPacker(maximumSide: 2048)
            packer.heuristics = [heuristic]
            XCTAssertLessThanOrEqual(best.area, try packer.pack(items).area, "\(heuristic)")
        }
    }

    func testDeterministic() throws {
        let items = randomItems(70, seed: 3)
        let first = try MaxRectsPacker(maximumSide: 1024, allowRotation: true).pack(items)
        for _ in 0..<3 { XCTAssertEqual(try MaxRectsPacker(maximumSide: 1024, allowRotation: true).pack(items), first) }
    }

    func testSmallPagesSpillOntoSeveral() throws {
        let items = randomItems(40, seed: 5, maximum: 60)
        let result = try MaxRectsPacker(maximumSide: 128).pack(items)
        XCTAssertGreaterThan(result.pages.count, 2)
        assertValid(result, items, maximumSide: 128)
    }

    func testRotationAndPowerOfTwo() throws {
        // Eight 60×8 strips fill a 64×64 page only if the upright ones turn to lie with the others.
        let items = (0..<8).map { MaxRectsPacker.Item(width: $0 % 2 == 0 ? 60 : 8, height: $0 % 2 == 0 ? 8 : 60) }
        let turned = try MaxRectsPacker(maximumSide: 64, allowRotation: true, powerOfTwo: true).pack(items)
        assertValid(turned, items, maximumSide: 64)
        XCTAssertEqual(turned.pages.count, 1)
        XCTAssert(turned.placements.contains(where: \.rotated))
        for page in turned.pages {
            XCTAssertEqual(page.width & (page.width - 1), 0, "\(page)")
            XCTAssertEqual(page.height & (page.height - 1), 0, "\(page)")
        }
        let upright = try MaxRectsPacker(maximumSide: 64, allowRotation: false).pack(items)
        XCTAssertFalse(upright.placements.contains(where: \.rotated))
        assertValid(upright, items, maximumSide: 64)
        let wide = [MaxRectsPacker.Item(width: 100, height: 10)]
        XCTAssertThrowsError(try MaxRectsPacker(maximumSide: 64).pack(wide)) { error in
            XCTAssertEqual(error as? MaxRectsPacker.TooLarge, MaxRectsPacker.TooLarge(item: 0))
        }
    }
}
