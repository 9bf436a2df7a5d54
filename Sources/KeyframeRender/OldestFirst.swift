/// Remembered things with their sizes in bytes, forgotten oldest first beyond a limit: the eviction order of
/// ``EncodedPictureCache`` and ``RenderedFrameCache``.
struct OldestFirst<Element> {
    /// The most bytes kept.
    let byteLimit: Int
    private var items: [(element: Element, bytes: Int)?] = []  // oldest first; nil once forgotten
    private var first = 0
    /// The bytes of everything kept.
    private(set) var storedBytes = 0

    init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
    }

    /// Keeps `element`, of `bytes`, and returns what is forgotten to stay within the limit, oldest first (`element`
    /// itself when it alone is over the limit).
    mutating func append(_ element: Element, bytes: Int) -> [Element] {
        items.append((element, bytes))
        storedBytes += bytes
        var forgotten: [Element] = []
        while storedBytes > byteLimit, first < items.count {
            if let oldest = items[first] {
                storedBytes -= oldest.bytes
                forgotten.append(oldest.element)
            }
            items[first] = nil
            first += 1
        }
        if first > 1024, first * 2 > items.count {
            items.removeFirst(first)
            first = 0
        }
        return forgotten
    }
}
