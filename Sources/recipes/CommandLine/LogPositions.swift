import RecipeCLI
import RecipeWire

/// Parses the positions and times the replay and audit commands take.
///
/// A position `P:O` names the record at offset O of partition P, as `recipes send`,
/// `history` and `audit export` print it, and a moment given by position or time
/// includes that record: `replay --until-position 0:9` replays offsets 0…9 of
/// partition 0, as `audit as-of --position 0:9` shows the recipe after the record at 0:9.
enum LogPositions {
    /// `P:O,P:O,…` → the offset of the last record to include, by partition.
    static func positions(_ text: String, option: String) throws -> [Int32: Int64] {
        var positions: [Int32: Int64] = [:]
        for item in text.split(separator: ",") {
            let (partition, offset) = try position(String(item), option: option)
            guard positions.updateValue(offset, forKey: partition) == nil else {
                throw UsageError("--\(option): partition \(partition) given twice")
            }
        }
        guard !positions.isEmpty else { throw UsageError("--\(option) needs PARTITION:OFFSET[,…], got \"\(text)\"") }
        return positions
    }

    /// `P:O` → (partition, offset).
    static func position(_ text: String, option: String) throws -> (Int32, Int64) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let partition = Int32(parts[0]), partition >= 0, let offset = Int64(parts[1]), offset >= 0 else {
            throw UsageError("--\(option) needs PARTITION:OFFSET (e.g. 3:120), got \"\(text)\"")
        }
        return (partition, offset)
    }

    /// An RFC 3339 time → milliseconds since the epoch.
    static func time(_ text: String, option: String) throws -> Int64 {
        guard let time = RFC3339.parse(text) else {
            throw UsageError("--\(option) needs an RFC 3339 time (e.g. 2026-12-01T10:15:00Z), got \"\(text)\"")
        }
        return time.millisecondsSinceEpoch
    }
}
