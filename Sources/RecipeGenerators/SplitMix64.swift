// MARK: - Seeded random numbers

/// A tiny seeded random number generator (SplitMix64): the same seed gives the
/// same numbers on every machine and every Swift release.
///
/// The domain itself never draws random numbers; this is for generating test and
/// benchmark input. The helpers below are used instead of the standard library's
/// `random(in:using:)`, whose way of drawing from a generator may change between
/// releases and would then change every seeded test input.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: - Drawing

    /// Uniform in `0..<bound`; `bound` must be positive. Uses the high half of a
    /// 128-bit product, whose bias (below 2⁻⁵⁰ for small bounds) does not matter here.
    public mutating func int(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Uniform in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.upperBound - range.lowerBound + 1)
    }

    /// Uniform in `[0, 1)`.
    public mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with the given probability.
    public mutating func chance(_ probability: Double) -> Bool {
        unitInterval() < probability
    }

    /// One element of a non-empty array.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(below: elements.count)]
    }
}
