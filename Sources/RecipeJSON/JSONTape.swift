// MARK: - JSON tape

/// The tokens of a record's values in document order, as `JSONScanner.value(depth:onto:)`
/// lays them down, read by index: a container's members or elements are the tokens
/// after it up to its `next`, so a reader steps over a nested value in one step instead
/// of scanning its bytes again. Reading `data` by scanning went over the bytes once per
/// level: an event's strings four times, a `ContentSet`'s ingredients five.
///
/// Borrowed, like the bytes it points into: valid only inside the decoder's call.
public struct JSONTape {
    public let bytes: UnsafeRawBufferPointer
    public let tokens: UnsafeBufferPointer<JSONToken>

    @inlinable
    public init(bytes: UnsafeRawBufferPointer, tokens: UnsafeBufferPointer<JSONToken>) {
        self.bytes = bytes
        self.tokens = tokens
    }

    @inlinable public subscript(index: Int) -> JSONToken { tokens[index] }

    /// The text of the string token at `index`.
    @inlinable public func text(_ index: Int) -> String { tokens[index].text(in: bytes) }

    /// Calls `body` with the key's and the value's index of each member of the object at
    /// `index`, in order.
    @inlinable
    public func forEachMember<Failure: Error>(ofObject index: Int, _ body: (_ key: Int, _ value: Int) throws(Failure) -> Void) throws(Failure) {
        var key = index &+ 1
        let end = tokens[index].next
        while key < end {
            let value = key &+ 1
            try body(key, value)
            key = tokens[value].next
        }
    }

    /// Calls `body` with the index of each element of the array at `index`, in order.
    @inlinable
    public func forEachElement<Failure: Error>(ofArray index: Int, _ body: (_ element: Int) throws(Failure) -> Void) throws(Failure) {
        var element = index &+ 1
        let end = tokens[index].next
        while element < end {
            try body(element)
            element = tokens[element].next
        }
    }
}

// MARK: - Laying a tape down

/// Where the scanner lays a record's tokens down: first in a buffer the caller lends (a
/// kibibyte on its stack holds the 64 tokens of most records), moved to the heap when a
/// record has more, so a record allocates no array of its own. A JSON value takes at
/// least two bytes with its separator, so the largest
/// decision (`DecisionFormat.maxRecordSize`, 4 MiB) lays down at most about two million
/// tokens, 32 MiB, only while it is read.
public struct JSONTapeWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<JSONToken>
    @usableFromInline var capacity: Int
    @usableFromInline var ownsBase: Bool
    @usableFromInline var written = 0

    /// How many tokens are laid down.
    @inlinable public var count: Int { written }

    /// Starts in `buffer`, which must outlive the writer.
    @inlinable
    public init(startingIn buffer: UnsafeMutableBufferPointer<JSONToken>) {
        base = buffer.baseAddress!
        capacity = buffer.count
        ownsBase = false
    }

    /// Starts on the heap (tests, and readers outside the decoders).
    @inlinable
    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
        ownsBase = true
    }

    @inlinable
    deinit {
        if ownsBase { base.deallocate() }
    }

    /// The tokens laid down, valid while the writer lives and lays no more.
    @inlinable public var tokens: UnsafeBufferPointer<JSONToken> { UnsafeBufferPointer(start: base, count: written) }

    @inlinable
    public mutating func append(_ token: JSONToken) {
        if written == capacity { grow() }
        (base + written).initialize(to: token)
        written &+= 1
    }

    /// A token already laid down, e.g. a container's, completed once its end is known.
    @inlinable public subscript(index: Int) -> JSONToken {
        get {
            precondition(index >= 0 && index < written)
            return base[index]
        }
        set {
            precondition(index >= 0 && index < written)
            base[index] = newValue
        }
    }

    @usableFromInline
    mutating func grow() {
        let larger = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: written)
        if ownsBase { base.deallocate() }
        base = larger
        capacity *= 2
        ownsBase = true
    }
}
