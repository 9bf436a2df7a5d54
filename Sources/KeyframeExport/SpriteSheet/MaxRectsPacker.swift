import Foundation

/// Packs rectangles into as few and as small pages as it can with the MaxRects algorithm (Jukka Jylänki, "A Thousand
/// Ways to Pack the Bin", 2010), trying every ``Heuristic``, four item orders and 25 first-page widths, and keeping
/// the smallest result.
///
/// The result depends only on the sizes and settings: each order is fixed (ties by index), every score tie is broken by
/// position, and candidate results are compared by (pages, total area, heuristic, order, width), so the same input
/// always packs the same way.
public struct MaxRectsPacker: Sendable {
    /// How a free rectangle is chosen for the next item.
    public enum Heuristic: String, Sendable, CaseIterable {
        /// The free rectangle whose shorter leftover side is smallest.
        case bestShortSide = "best-short-side"
        /// The free rectangle whose longer leftover side is smallest.
        case bestLongSide = "best-long-side"
        /// The free rectangle with the least area left over.
        case bestArea = "best-area"
        /// The lowest placement (then leftmost): Tetris-like.
        case bottomLeft = "bottom-left"
        /// The placement touching the most edge length of the page and of items already placed, among those that
        /// grow the page's used height least (the page has no fixed height to touch: it is cut to what it holds).
        case contactPoint = "contact-point"
    }

    /// One rectangle to place: its size in pixels (including whatever padding the caller adds).
    public struct Item: Sendable, Equatable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// Where an item went.
    public struct Placement: Sendable, Equatable {
        /// The page, from 0.
        public var page: Int
        /// The top-left corner on the page.
        public var x: Int, y: Int
        /// Whether the item is stored turned a quarter turn (its width runs down the page).
        public var rotated: Bool
    }

    /// A finished packing.
    public struct Result: Sendable, Equatable {
        /// One placement per item, in the items' order.
        public var placements: [Placement]
        /// Each page's size.
        public var pages: [(width: Int, height: Int)]
        /// The heuristic that gave this result.
        public var heuristic: Heuristic

        /// The pages' summed area in pixels.
        public var area: Int { pages.reduce(0) { $0 + $1.width * $1.height } }

        public static func == (a: Result, b: Result) -> Bool {
            a.placements == b.placements && a.heuristic == b.heuristic
                && a.pages.map(\.width) == b.pages.map(\.width) && a.pages.map(\.height) == b.pages.map(\.height)
        }
    }

    /// Why items cannot be packed.
    public struct TooLarge: Error, Sendable, Equatable {
        /// The first item (by index) that is larger than a page.
        public var item: Int

        public init(item: Int) { self.item = item }
    }

    /// The largest page side.
    public var maximumSide: Int
    /// Whether items may be turned a quarter turn.
    public var allowRotation: Bool
    /// Whether page sides are rounded up to powers of two.
    public var powerOfTwo: Bool
    /// The heuristics tried (all by default).
    public var heuristics: [Heuristic] = Heuristic.allCases

    public init(maximumSide: Int, allowRotation: Bool = false, powerOfTwo: Bool = false) {
        self.maximumSide = maximumSide
        self.allowRotation = allowRotation
        self.powerOfTwo = powerOfTwo
    }

    /// Packs `items`; the best result over every heuristic and candidate page width.
    ///
    /// - Throws: ``TooLarge`` when an item does not fit a `maximumSide` square page.
    public func pack(_ items: [Item]) throws(TooLarge) -> Result {
        for (index, item) in items.enumerated() {
            let fits = item.width <= maximumSide && item.height <= maximumSide
            if !fits || item.width <= 0 || item.height <= 0 { throw TooLarge(item: index) }
        }
        guard !items.isEmpty else { return Result(placements: [], pages: [], heuristic: heuristics.first ?? .bestShortSide) }
        // Orders to take the items in: longer side, area, height, width first (ties by index).
        let keys: [(Item) -> (Int, Int)] = [
            { (max($0.width, $0.height), $0.width * $0.height) }, { ($0.width * $0.height, max($0.width, $0.height)) },
            { ($0.height, $0.width) }, { ($0.width, $0.height) },
        ]
        let orders = keys.map { key in
            items.indices.sorted { a, b in
                let (x, y) = (key(items[a]), key(items[b]))
                return x != y ? x > y : a < b
            }
        }
        var best: (result: Result, rank: [Int])?
        let widths = candidateWidths(items)
        for (rank, heuristic) in heuristics.enumerated() {
            for (orderRank, order) in orders.enumerated() {
                for width in widths {
                    let result = packPages(items, order: order, heuristic: heuristic, firstWidth: width)
                    let key = [result.pages.count, result.area, rank, orderRank, width]
                    if best == nil || key.lexicographicallyPrecedes(best!.rank) { best = (result, key) }
                }
            }
        }
        return best!.result
    }

    /// Page widths worth trying for the first page: around the square root of the total area, from the widest item
    /// to the maximum side (and powers of two with ``powerOfTwo``).
    func candidateWidths(_ items: [Item]) -> [Int] {
        let narrowest = items.map { allowRotation ? min($0.width, $0.height) : $0.width }.max()!
        let total = items.reduce(0.0) { $0 + Double($1.width * $1.height) }
        let root = total.squareRoot()
        var widths = Set<Int>()
        for step in 0...24 {
            // 0.7 … 3.0 times the square root, each step 5 % wider.
            let factor = 0.7 * pow(1.0625, Double(step))
            widths.insert(min(maximumSide, max(narrowest, Int((root * factor).rounded(.up)))))
        }
        widths.insert(maximumSide)
        if powerOfTwo { widths = Set(widths.map { min(maximumSide, MaxRectsPacker.powerOfTwo(atLeast: $0)) }) }
        return widths.sorted()
    }

    /// Packs every item: the first page `firstWidth` wide (any height up to the maximum), then further pages of the
    /// maximum size for what did not fit; each page is then cut down to what it holds.
    func packPages(_ items: [Item], order: [Int], heuristic: Heuristic, firstWidth: Int) -> Result {
        var placements = [Placement?](repeating: nil, count: items.count)
        var pages: [(width: Int, height: Int)] = []
        var remaining = order
        while !remaining.isEmpty {
            let width = pages.isEmpty ? firstWidth : maximumSide
            var bin = Bin(width: width, height: maximumSide, heuristic: heuristic, allowRotation: allowRotation)
            var left: [Int] = []
            var used = (width: 0, height: 0)
            for index in remaining {
                guard let (x, y, rotated) = bin.insert(items[index]) else { left.append(index); continue }
                placements[index] = Placement(page: pages.count, x: x, y: y, rotated: rotated)
                let (w, h) = rotated ? (items[index].height, items[index].width) : (items[index].width, items[index].height)
                used = (max(used.width, x + w), max(used.height, y + h))
            }
            if left.count == remaining.count {
                // Nothing fit a narrow first page: start again at the full width.
                if pages.isEmpty && width < maximumSide {
                    return packPages(items, order: order, heuristic: heuristic, firstWidth: maximumSide)
                }
                break
            }
            pages.append(powerOfTwo ? (MaxRectsPacker.powerOfTwo(atLeast: used.width),
                                       MaxRectsPacker.powerOfTwo(atLeast: used.height)) : used)
            remaining = left
        }
        return Result(placements: placements.map { $0! }, pages: pages, heuristic: heuristic)
    }

    /// The smallest power of two not below `value`.
    static func powerOfTwo(atLeast value: Int) -> Int {
        var side = 1
        while side < value { side <<= 1 }
        return side
    }
}

/// One page being filled: the free rectangles left (maximal, possibly overlapping) and the rectangles used.
private struct Bin {
    struct Rect: Equatable {
        var x: Int, y: Int, width: Int, height: Int
        func contains(_ other: Rect) -> Bool {
            other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
        }
    }

    let width: Int
    let height: Int
    let heuristic: MaxRectsPacker.Heuristic
    let allowRotation: Bool
    var free: [Rect]
    var used: [Rect] = []
    /// The lowest edge of the rectangles used.
    var usedHeight = 0

    init(width: Int, height: Int, heuristic: MaxRectsPacker.Heuristic, allowRotation: Bool) {
        self.width = width
        self.height = height
        self.heuristic = heuristic
        self.allowRotation = allowRotation
        free = [Rect(x: 0, y: 0, width: width, height: height)]
    }

    /// Places `item` at its best position; `nil` when it fits nowhere.
    mutating func insert(_ item: MaxRectsPacker.Item) -> (x: Int, y: Int, rotated: Bool)? {
        var best: (score: (Int, Int, Int, Int), rect: Rect, rotated: Bool)?
        for candidate in free {
            for rotated in allowRotation && item.width != item.height ? [false, true] : [false] {
                let (w, h) = rotated ? (item.height, item.width) : (item.width, item.height)
                guard w <= candidate.width, h <= candidate.height else { continue }
                let placed = Rect(x: candidate.x, y: candidate.y, width: w, height: h)
                let (first, second) = score(placed, in: candidate)
                let key = (first, second, placed.y, placed.x)
                if best == nil || key < best!.score { best = (key, placed, rotated) }
            }
        }
        guard let best else { return nil }
        place(best.rect)
        return (best.rect.x, best.rect.y, best.rotated)
    }

    /// The heuristic's score of `placed` in the free rectangle `free` (lower is better), with its tie-breaker.
    func score(_ placed: Rect, in free: Rect) -> (Int, Int) {
        let leftoverX = free.width - placed.width
        let leftoverY = free.height - placed.height
        switch heuristic {
        case .bestShortSide: return (min(leftoverX, leftoverY), max(leftoverX, leftoverY))
        case .bestLongSide: return (max(leftoverX, leftoverY), min(leftoverX, leftoverY))
        case .bestArea: return (free.width * free.height - placed.width * placed.height, min(leftoverX, leftoverY))
        case .bottomLeft: return (placed.y + placed.height, placed.x)
        case .contactPoint: return (max(0, placed.y + placed.height - usedHeight), -contact(placed))
        }
    }

    /// The length of `placed`'s edges touching the page's edges or rectangles already used. The bottom edge does
    /// not count: the page is cut down to what it holds, so its height is only a limit.
    func contact(_ placed: Rect) -> Int {
        var total = 0
        if placed.x == 0 || placed.x + placed.width == width { total += placed.height }
        if placed.y == 0 { total += placed.width }
        for other in used {
            if other.x == placed.x + placed.width || other.x + other.width == placed.x {
                total += overlap(other.y, other.y + other.height, placed.y, placed.y + placed.height)
            }
            if other.y == placed.y + placed.height || other.y + other.height == placed.y {
                total += overlap(other.x, other.x + other.width, placed.x, placed.x + placed.width)
            }
        }
        return total
    }

    private func overlap(_ start1: Int, _ end1: Int, _ start2: Int, _ end2: Int) -> Int {
        max(0, min(end1, end2) - max(start1, start2))
    }

    /// Marks `placed` used: every free rectangle it overlaps is split into the up to four maximal rectangles around
    /// it, and free rectangles inside others are dropped.
    mutating func place(_ placed: Rect) {
        var kept: [Rect] = []
        var split: [Rect] = []
        for rect in free {
            guard placed.x < rect.x + rect.width, placed.x + placed.width > rect.x,
                  placed.y < rect.y + rect.height, placed.y + placed.height > rect.y
            else { kept.append(rect); continue }
            if placed.x > rect.x {
                split.append(Rect(x: rect.x, y: rect.y, width: placed.x - rect.x, height: rect.height))
            }
            if placed.x + placed.width < rect.x + rect.width {
                split.append(Rect(x: placed.x + placed.width, y: rect.y,
                                  width: rect.x + rect.width - placed.x - placed.width, height: rect.height))
            }
            if placed.y > rect.y {
                split.append(Rect(x: rect.x, y: rect.y, width: rect.width, height: placed.y - rect.y))
            }
            if placed.y + placed.height < rect.y + rect.height {
                split.append(Rect(x: rect.x, y: placed.y + placed.height, width: rect.width,
                                  height: rect.y + rect.height - placed.y - placed.height))
            }
        }
        // Prune: the untouched rectangles contain none of each other already; a new one inside any other is dropped
        // (the earlier of two equal new ones is kept), and an untouched one inside a new one is dropped.
        var fresh: [Rect] = []
        for (i, rect) in split.enumerated() {
            let inside = kept.contains { $0.contains(rect) }
                || split.enumerated().contains { j, other in j != i && other.contains(rect) && (other != rect || j < i) }
            if !inside { fresh.append(rect) }
        }
        kept.removeAll { rect in fresh.contains { $0.contains(rect) } }
        kept += fresh
        free = kept
        used.append(placed)
        usedHeight = max(usedHeight, placed.y + placed.height)
    }
}
