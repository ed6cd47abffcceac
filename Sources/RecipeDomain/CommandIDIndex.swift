// MARK: - Applied command ids
//
// Every accepted command id of a recipe is kept for duplicate detection, and the
// check runs on every command, so this is the fold's hottest structure. A
// `Set<String>` rehashes every string with SipHash when it grows and compares
// whole strings along probe chains; this index hashes each id once with a cheap
// word-at-a-time hash, keeps hash bits beside each entry, and compares strings
// only when they match. Ids are also kept in acceptance order, so equality and snapshots never
// depend on hash order.

struct CommandIDIndex: Sendable {
    /// Accepted ids, in the order they were accepted.
    private(set) var ids: [String] = []
    /// Open addressing with linear probing, at most half full; empty or a power of
    /// two long. A slot holds the upper 32 bits of the id's hash and its index in
    /// `ids` + 1, or 0 when free. Keeping hash bits in the slot means a lookup
    /// reads this one buffer and touches `ids` only when the bits match, and the
    /// table can grow without hashing any id again.
    private var slots: [UInt64] = []

    init() {}

    init(_ ids: [String]) {
        for id in ids {
            let hash = Self.hash(id)
            if !contains(id, hash: hash) { insert(id, hash: hash) }
        }
    }

    var count: Int { ids.count }

    func contains(_ id: String, hash: UInt64) -> Bool {
        guard !slots.isEmpty else { return false }
        let tag = hash >> 32
        let mask = slots.count &- 1
        var position = Int(truncatingIfNeeded: tag) & mask
        while true {
            let slot = slots[position]
            if slot == 0 { return false }
            if slot >> 32 == tag, ids[Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) &- 1].isSameID(as: id) { return true }
            position = (position &+ 1) & mask
        }
    }

    /// Adds an id that is not in the index yet.
    mutating func insert(_ id: String, hash: UInt64) {
        if (ids.count + 1) * 2 > slots.count { grow() }
        ids.append(id)
        place((hash >> 32) << 32 | UInt64(ids.count))
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: max(16, old.count * 2))
        for slot in old where slot != 0 { place(slot) }
    }

    private mutating func place(_ slot: UInt64) {
        let mask = slots.count &- 1
        var position = Int(truncatingIfNeeded: slot >> 32) & mask
        while slots[position] != 0 { position = (position &+ 1) & mask }
        slots[position] = slot
    }

    // MARK: - Hashing

    /// A fast 64-bit hash of the UTF-8 bytes, eight at a time, with a SplitMix64
    /// finish. Unseeded on purpose (the fold uses no randomness); hashes never
    /// leave this type, so they affect speed only, never results.
    static func hash(_ id: String) -> UInt64 {
        var text = id
        return text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var hash: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: bytes.count)
            var offset = 0
            while offset &+ 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
                offset &+= 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                tail |= UInt64(bytes[offset]) << shift
                shift &+= 8
                offset &+= 1
            }
            hash = (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
            hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
            hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
            return hash ^ (hash >> 31)
        }
    }
}

// Two indexes are equal when they hold the same ids in the same order; the
// slots are a function of that and need no comparing.
extension CommandIDIndex: Hashable {
    static func == (lhs: CommandIDIndex, rhs: CommandIDIndex) -> Bool {
        lhs.ids == rhs.ids
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ids)
    }
}
