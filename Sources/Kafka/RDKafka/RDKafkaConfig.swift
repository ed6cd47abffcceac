import CRdKafka

/// Builds an `rd_kafka_conf_t` from resolved properties, turning librdkafka's
/// refusal of any property into a `KafkaError` that names it.
enum RDKafkaConfig {
    /// The caller owns the returned conf until it hands it to `rd_kafka_new`.
    static func make(_ properties: [(String, String)]) throws -> OpaquePointer {
        guard let conf = rd_kafka_conf_new() else {
            throw KafkaError(.clientCreation, "rd_kafka_conf_new returned nothing")
        }
        for (key, value) in properties {
            do { try set(conf, key, value) } catch {
                rd_kafka_conf_destroy(conf)
                throw error
            }
        }
        return conf
    }

    static func set(_ conf: OpaquePointer, _ key: String, _ value: String) throws {
        var errstr = [CChar](repeating: 0, count: 512)
        let result = rd_kafka_conf_set(conf, key, value, &errstr, errstr.count)
        guard result == RD_KAFKA_CONF_OK else {
            let reason = String(decoding: errstr.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let what = result == RD_KAFKA_CONF_UNKNOWN ? "unknown property" : "invalid value for property"
            throw KafkaError(.invalidConfiguration, "\(what) \"\(key)\": \(reason)")
        }
    }

    /// Reads librdkafka's error buffer after a failed `rd_kafka_new`.
    static func string(from buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
