// MARK: - JSON tape

/// The tokens of a record's values in document order, as `JSONScanner.value(depth:onto:)`
/// lays them down, read by index: a container's members or elements are the tokens
/// after it up to its `next`, so a reader steps over a nested value in one step instead
/// of scanning its bytes again. Reading `data` by scanning went over the bytes once per
/// level: an event's strings four times, a `ContentSet`'s ingredients five.
///
/// Borrowed, like the bytes it points into: valid only inside the decoder's call.
struct JSONTape {
    let bytes: UnsafeRawBufferPointer
    let tokens: UnsafeBufferPointer<JSONToken>

    subscript(index: Int) -> JSONToken { tokens[index] }

    /// The text of the string token at `index`.
    func text(_ index: Int) -> String { tokens[index].text(in: bytes) }

    /// Calls `body` with the key's and the value's index of each member of the object at
    /// `index`, in order.
    func forEachMember(ofObject index: Int, _ body: (_ key: Int, _ value: Int) throws(WireError) -> Void) throws(WireError) {
        var key = index &+ 1
        let end = tokens[index].next
        while key < end {
            let value = key &+ 1
            try body(key, value)
            key = tokens[value].next
        }
    }

    /// Calls `body` with the index of each element of the array at `index`, in order.
    func forEachElement(ofArray index: Int, _ body: (_ element: Int) throws(WireError) -> Void) throws(WireError) {
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
struct JSONTapeWriter: ~Copyable {
    private var base: UnsafeMutablePointer<JSONToken>
    private var capacity: Int
    private var ownsBase: Bool
    private(set) var count = 0

    /// Starts in `buffer`, which must outlive the writer.
    init(startingIn buffer: UnsafeMutableBufferPointer<JSONToken>) {
        base = buffer.baseAddress!
        capacity = buffer.count
        ownsBase = false
    }

    /// Starts on the heap (tests, and readers outside the decoders).
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
        ownsBase = true
    }

    deinit {
        if ownsBase { base.deallocate() }
    }

    /// The tokens laid down, valid while the writer lives and lays no more.
    var tokens: UnsafeBufferPointer<JSONToken> { UnsafeBufferPointer(start: base, count: count) }

    mutating func append(_ token: JSONToken) {
        if count == capacity { grow() }
        (base + count).initialize(to: token)
        count &+= 1
    }

    /// A token already laid down, e.g. a container's, completed once its end is known.
    subscript(index: Int) -> JSONToken {
        get {
            precondition(index >= 0 && index < count)
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count)
            base[index] = newValue
        }
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        if ownsBase { base.deallocate() }
        base = larger
        capacity *= 2
        ownsBase = true
    }
}
