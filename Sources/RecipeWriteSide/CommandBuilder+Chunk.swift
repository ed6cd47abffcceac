import RecipeDomain
import RecipeWire
#if canImport(Glibc)
import Glibc
#endif

extension CommandBuilder {
    /// What the commands built together (a chunk of `send --stdin`, a batch) share: the time they
    /// are made at, written as text once, and the random bits of their ids, drawn for up to 256 ids
    /// per system call rather than one call per id.
    public struct Chunk: Sendable {
        public let time: Timestamp
        let timeText: String
        private var random: [UInt64] = []
        private var used = 0
        /// Commands still expected: how many ids the next draw is for.
        private var expected: Int
        /// The envelope attributes of the last command built, checked once for the commands that share them.
        private var attributes: RecordDecoder.ProducerAttributes?

        public init(time: Timestamp = .now, commands: Int) {
            self.time = time
            timeText = RFC3339.string(time)
            expected = max(1, commands)
        }

        /// The attributes the builder writes into a command of this chunk by `actor` in `actorRole`.
        mutating func attributes(source: String, actor: String, actorRole: ActorRole?) -> RecordDecoder.ProducerAttributes {
            if let attributes, attributes.actor == actor, attributes.actorRole == actorRole, attributes.source == source {
                return attributes
            }
            let made = RecordDecoder.ProducerAttributes(source: source, actor: actor, actorRole: actorRole, time: time, timeText: timeText)
            attributes = made
            return made
        }

        mutating func newCommandID() -> String {
            if used == random.count {
                let ids = min(expected, 256)
                random = [UInt64](repeating: 0, count: 2 * ids)
                random.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
                used = 0
                expected = max(1, expected - ids)
            }
            defer { used += 2 }
            return CommandBuilder.commandID(random[used], random[used + 1])
        }
    }

    /// A command built from a line, with its record's key and, when the bytes read to validate it
    /// are already what `RecordEncoder` writes for it, those bytes: what to append without encoding
    /// the command again.
    public struct Command: Sendable {
        public var decoded: DecodedRecord
        /// The recipe's record key.
        public var key: [UInt8]
        /// The canonical record, or nil: encode `decoded.envelope`.
        public var record: [UInt8]?

        /// The record's bytes: `record`, or the envelope encoded.
        public var value: [UInt8] {
            record ?? RecordEncoder(source: decoded.source).encode(decoded.envelope)
        }

        init(_ decoded: DecodedRecord, key: [UInt8]? = nil, record: [UInt8]? = nil) {
            self.decoded = decoded
            self.key = key ?? RecordKey.key(forRecipe: decoded.envelope.recipeID)
            self.record = record
        }
    }
}
