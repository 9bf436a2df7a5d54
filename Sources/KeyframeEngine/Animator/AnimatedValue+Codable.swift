extension AnimatedValue: Codable {
    private enum CodingKeys: String, CodingKey { case clipTime }

    /// Encodes a scalar as a number, a vector as an array, a clip time as `{"clipTime": seconds}`.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .scalar(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .vector(let values):
            var container = encoder.singleValueContainer()
            try container.encode(values)
        case .clipTime(let time):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(time.value, forKey: .clipTime)
        }
    }

    /// Decodes the forms ``encode(to:)`` writes.
    public init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self),
           let seconds = try? keyed.decode(Double.self, forKey: .clipTime) {
            self = .clipTime(Seconds(seconds))
            return
        }
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Double.self) {
            self = .scalar(value)
        } else {
            self = .vector(try container.decode([Double].self))
        }
    }
}
