/// The partition a key lands on under `murmur2_random`: the hash of the Java
/// client's default partitioner and of `kafka-python`, so that every producer
/// agrees and a consumer can check where a record should sit.
public enum KafkaPartitioner {
    /// Kafka's murmur2 (seed 0x9747b28c) of the key bytes.
    public static func murmur2(_ key: [UInt8]) -> UInt32 {
        key.withUnsafeBytes(murmur2)
    }

    /// Kafka's murmur2 of key bytes in place: a borrowed record's key, without a copy.
    public static func murmur2(_ key: UnsafeRawBufferPointer) -> UInt32 {
        let m: UInt32 = 0x5bd1_e995
        let length = key.count
        var h: UInt32 = 0x9747_b28c ^ UInt32(truncatingIfNeeded: length)
        var index = 0
        while index + 4 <= length {
            var k = UInt32(key[index]) | UInt32(key[index + 1]) << 8 | UInt32(key[index + 2]) << 16 | UInt32(key[index + 3]) << 24
            k &*= m
            k ^= k >> 24
            k &*= m
            h &*= m
            h ^= k
            index += 4
        }
        let rest = length & 3
        if rest == 3 { h ^= UInt32(key[index + 2]) << 16 }
        if rest >= 2 { h ^= UInt32(key[index + 1]) << 8 }
        if rest >= 1 {
            h ^= UInt32(key[index])
            h &*= m
        }
        h ^= h >> 13
        h &*= m
        h ^= h >> 15
        return h
    }

    /// `toPositive(murmur2(key)) % partitionCount`, as the Java client computes it.
    public static func partition(forKey key: [UInt8], partitionCount: Int) -> Int32 {
        key.withUnsafeBytes { partition(forKey: $0, partitionCount: partitionCount) }
    }

    public static func partition(forKey key: UnsafeRawBufferPointer, partitionCount: Int) -> Int32 {
        Int32((murmur2(key) & 0x7fff_ffff) % UInt32(partitionCount))
    }
}
