/// Settings for a Kafka client: a few typed common ones plus any librdkafka
/// property passed through unchanged (so SASL, TLS and tuning settings work
/// as librdkafka documents them).
///
/// ```swift
/// var config = KafkaConfig(bootstrapServers: "broker-1:9092")
/// config["security.protocol"] = "SASL_SSL"
/// config["sasl.mechanisms"] = "SCRAM-SHA-512"
/// let producer = try KafkaProducer(config: config)
/// ```
///
/// Properties are validated when a client is created: an unknown key or a bad
/// value throws `KafkaError.Code.invalidConfiguration` naming the property and
/// carrying librdkafka's message.
public struct KafkaConfig: Sendable, Equatable {
    /// `bootstrap.servers`: comma-separated `host:port` list.
    public var bootstrapServers: String
    /// `client.id`, shown in broker logs.
    public var clientID: String = "recipe-ledger"
    /// Any librdkafka property; applied after the typed settings and the
    /// client's own defaults, so it can override both.
    public private(set) var properties: [String: String] = [:]
    /// For a consumer of a cluster embedded in this process (`EmbeddedKafka`), which answers a
    /// fetch only when its whole wait ends: stop fetching while nothing arrives, and fetch again
    /// as soon as a producer of this process has a record acknowledged on a topic it reads, or
    /// every quarter second for other processes' records (`IdleFetching`). No effect elsewhere:
    /// a real broker answers a fetch as soon as a record arrives.
    public var stopsFetchingWhenIdle = false
    /// How often such a consumer, idle, asks where its partitions end (`IdleFetching.peekInterval`).
    var idlePeekInterval = IdleFetching.peekInterval

    public init(bootstrapServers: String, properties: [String: String] = [:]) {
        self.bootstrapServers = bootstrapServers
        self.properties = properties
    }

    public subscript(property: String) -> String? {
        get { properties[property] }
        set { properties[property] = newValue }
    }

    /// Sets each of `properties` the config does not set itself: defaults of a use (a topic's
    /// record size, say) that the caller's own config may still override.
    public mutating func setDefaults(_ properties: [String: String]) {
        for (property, value) in properties where self.properties[property] == nil { self.properties[property] = value }
    }

    /// The properties in the order they are applied: defaults of the client
    /// kind first, then the typed settings, then the pass-through properties.
    func resolved(defaults: [(String, String)]) -> [(String, String)] {
        var all = defaults
        all.append(("bootstrap.servers", bootstrapServers))
        all.append(("client.id", clientID))
        all.append(contentsOf: properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        return all
    }

    /// Reads `key=value` lines (Java client `.properties` style, `#` comments)
    /// into pass-through properties: how TLS and SASL settings reach librdkafka
    /// from a file.
    public mutating func merge(propertiesText text: String) throws {
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("!") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw KafkaError(.invalidConfiguration, "line \(index + 1): expected key=value, got \"\(line)\"")
            }
            let key = line[..<equals].trimmingWhitespace()
            let value = line[line.index(after: equals)...].trimmingWhitespace()
            if key == "bootstrap.servers" { bootstrapServers = value } else { properties[key] = value }
        }
    }

    /// Takes every `KAFKA_<NAME>` environment variable as the property
    /// `<name>` with `_` read as `.` (`KAFKA_SASL_USERNAME` → `sasl.username`),
    /// the convention of the Confluent images.
    public mutating func merge(environment: [String: String]) {
        for (name, value) in environment where name.hasPrefix("KAFKA_") && name.count > 6 {
            let key = name.dropFirst(6).lowercased().replacingUnderscoresWithDots()
            if key == "bootstrap.servers" { bootstrapServers = value } else { properties[key] = value }
        }
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars.drop { $0.properties.isWhitespace }
        var end = scalars.endIndex
        while end > scalars.startIndex, scalars[scalars.index(before: end)].properties.isWhitespace {
            end = scalars.index(before: end)
        }
        return String(String.UnicodeScalarView(scalars[scalars.startIndex..<end]))
    }

    func replacingUnderscoresWithDots() -> String {
        String(map { $0 == "_" ? "." : $0 })
    }
}
