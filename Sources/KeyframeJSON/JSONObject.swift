/// The members of a JSON object: unique keys with their values, kept in the order they were first written.
///
/// Most objects in the formats Keyframe reads have a handful of members, so a small object is a plain array searched
/// key by key (comparing a few short keys costs less than hashing one, and the parser makes no hash table per
/// object); an object larger than ``indexedSize`` also keeps a key → position table. Keys compare as Swift strings
/// do (canonical equivalence), as a dictionary's would.
///
/// Equality and hashing ignore the order of members, as a JSON object's meaning does; iteration follows it, so a
/// parsed document walks its members in file order. ``JSONWriter`` always writes keys sorted.
public struct JSONObject: Sendable {
    /// One member: its key and value.
    public typealias Element = (key: String, value: JSONValue)

    /// The members, in order; no two with equal keys.
    @usableFromInline var members: [Element]
    /// Each key's position in ``members``, kept only for objects of more than ``indexedSize`` members.
    @usableFromInline var positions: [String: Int]?

    /// Objects with more members than this also keep a hash table of their keys.
    public static let indexedSize = 8

    /// An empty object.
    @inlinable
    public init() {
        members = []
        positions = nil
    }

    /// The members of `dictionary`, ordered by their keys' UTF-8 bytes (a dictionary's own order differs from run
    /// to run).
    public init(_ dictionary: [String: JSONValue]) {
        members = dictionary.sorted { JSONObject.precedes($0.key, $1.key) }
        positions = nil
        indexIfLarge()
    }

    /// Members in order; a later member with the key of an earlier one replaces its value (as a JSON parser
    /// reading `{"a": 1, "a": 2}` does), keeping the first one's position.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init(uniquing: Array(elements))
    }

    /// ``init(_:)`` on an array: taken as it is when its keys are distinct (checked key by key in a small object,
    /// by the hash table a large one keeps anyway).
    @usableFromInline
    init(uniquing candidates: [Element]) {
        members = candidates
        positions = nil
        if candidates.count <= JSONObject.indexedSize {
            guard candidates.count > 1 else { return }
            for later in 1..<candidates.count {
                for earlier in 0..<later where candidates[earlier].key == candidates[later].key {
                    self = JSONObject.merging(candidates)
                    return
                }
            }
        } else {
            var table = [String: Int](minimumCapacity: candidates.count)
            for position in candidates.indices {
                if table.updateValue(position, forKey: candidates[position].key) != nil {
                    self = JSONObject.merging(candidates)
                    return
                }
            }
            positions = table
        }
    }

    /// Members with repeated keys merged one by one: the later value, the first position.
    private static func merging(_ candidates: [Element]) -> JSONObject {
        var object = JSONObject()
        for candidate in candidates { object[candidate.key] = candidate.value }
        return object
    }

    /// Builds the key → position table when there are more than ``indexedSize`` members, else drops it.
    @usableFromInline
    mutating func indexIfLarge() {
        guard members.count > JSONObject.indexedSize else {
            positions = nil
            return
        }
        var table = [String: Int](minimumCapacity: members.count)
        for position in members.indices { table[members[position].key] = position }
        positions = table
    }

    /// The position of the member named `key`, if there is one.
    @inlinable
    public func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        var position = 0
        while position < members.count {
            if members[position].key == key { return position }
            position += 1
        }
        return nil
    }

    /// The value of the member named `key`; setting `nil` removes the member.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    indexIfLarge()
                }
            } else if let newValue {
                members.append((key, newValue))
                if positions != nil {
                    positions![key] = members.count - 1
                } else if members.count > JSONObject.indexedSize {
                    indexIfLarge()
                }
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The members with each value transformed, in the same order.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var result = self
        for position in result.members.indices { result.members[position].value = try transform(members[position].value) }
        return result
    }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s (a prefix first): the order ``JSONWriter`` writes keys in.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        if let result = a.utf8.withContiguousStorageIfAvailable({ x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let count = Swift.min(x.count, y.count)
                var i = 0
                while i < count {
                    if x[i] != y[i] { return x[i] < y[i] }
                    i += 1
                }
                return x.count < y.count
            }
        }), let result { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

extension JSONObject: RandomAccessCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { members.count }
    @inlinable public subscript(position: Int) -> Element { members[position] }
}

extension JSONObject: Hashable {
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.members.count == b.members.count else { return false }
        for member in a.members {
            guard let other = b[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Independent of the members' order, like equality.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var one = Hasher()
            one.combine(member.key)
            one.combine(member.value)
            combined ^= one.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(dictionaryLiteralElements: elements)
    }

    /// The members of a dictionary literal (``JSONValue``'s too), in the order written.
    init(dictionaryLiteralElements elements: [(String, JSONValue)]) {
        self.init(uniquing: elements.map { (key: $0.0, value: $0.1) })
    }
}
