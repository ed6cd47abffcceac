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

    /// Whether the string token at `index` is exactly `literal`.
    func text(_ index: Int, equals literal: StaticString) -> Bool { tokens[index].text(in: bytes, equals: literal) }

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
