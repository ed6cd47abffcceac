import Foundation

/// One record of a topic as kafka-python read it.
public struct PythonReadRecord: Sendable {
    public var partition: Int32
    public var offset: Int64
    public var key: [UInt8]?
    /// nil for a tombstone.
    public var value: [UInt8]?
    /// Header values as UTF-8 text.
    public var headers: [String: String]
}

/// A topic read by kafka-python (an independent client) from its start to the end each
/// partition had when it began, in partition then offset order.
public func topicReadByKafkaPython(bootstrap: String, topic: String, partitions: Int) throws -> [PythonReadRecord] {
    let script = """
        import base64, json, sys
        from kafka import KafkaConsumer, TopicPartition
        def b64(data): return None if data is None else base64.b64encode(data).decode()
        consumer = KafkaConsumer(bootstrap_servers=sys.argv[1], enable_auto_commit=False, auto_offset_reset="earliest")
        parts = [TopicPartition(sys.argv[2], p) for p in range(int(sys.argv[3]))]
        consumer.assign(parts)
        consumer.seek_to_beginning(*parts)
        ends = consumer.end_offsets(parts)
        while any(consumer.position(tp) < ends[tp] for tp in parts):
            for tp, messages in consumer.poll(timeout_ms=500).items():
                for m in messages:
                    print(json.dumps({"p": m.partition, "o": m.offset, "k": b64(m.key), "v": b64(m.value),
                                      "h": {name: value.decode() for name, value in m.headers}}))
        consumer.close()
        """
    struct Line: Decodable { var p: Int32; var o: Int64; var k: String?; var v: String?; var h: [String: String] }
    func bytes(_ base64: String?) -> [UInt8]? { base64.flatMap { Data(base64Encoded: $0) }.map { Array($0) } }
    let output = try runSystemPython(script, [bootstrap, topic, String(partitions)])
    return try String(decoding: output, as: UTF8.self).split(separator: "\n")
        .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        // kafka-python returns each partition in order; the partitions' records interleave.
        .sorted { ($0.p, $0.o) < ($1.p, $1.o) }
        .map { PythonReadRecord(partition: $0.p, offset: $0.o, key: bytes($0.k), value: bytes($0.v), headers: $0.h) }
}
