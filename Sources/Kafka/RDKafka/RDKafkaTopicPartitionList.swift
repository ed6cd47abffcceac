import CRdKafka

/// Converts between Swift partition values and `rd_kafka_topic_partition_list_t`,
/// so raw lists never leave this layer.
enum RDKafkaTopicPartitionList {
    /// A new list; the caller destroys it with `rd_kafka_topic_partition_list_destroy`.
    static func make(_ entries: [(KafkaTopicPartition, Int64)]) -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        let list = rd_kafka_topic_partition_list_new(Int32(entries.count))!
        for (tp, offset) in entries {
            rd_kafka_topic_partition_list_add(list, tp.topic, tp.partition).pointee.offset = offset
        }
        return list
    }

    static func entries(_ list: UnsafePointer<rd_kafka_topic_partition_list_t>) -> [(KafkaTopicPartition, Int64, rd_kafka_resp_err_t)] {
        (0..<Int(list.pointee.cnt)).map { index in
            let element = list.pointee.elems[index]
            return (KafkaTopicPartition(topic: String(cString: element.topic), partition: element.partition),
                    element.offset, element.err)
        }
    }
}
