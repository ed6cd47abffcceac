// MARK: - Timestamp

/// A point in time, in milliseconds since the Unix epoch (UTC).
///
/// The domain never reads a clock: every time comes with a command from the log,
/// where the wire layer converts it from RFC 3339.
public struct Timestamp: Sendable, Hashable, Comparable {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }
}
