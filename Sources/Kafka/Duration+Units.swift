// MARK: - Duration in the units C APIs and reports take

extension Duration {
    /// The duration in seconds, e.g. for a rate or a Prometheus histogram.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Whole milliseconds, clamped to what C `int` timeouts (librdkafka, libmicrohttpd) take.
    public var milliseconds: Int32 {
        Int32(clamping: components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
