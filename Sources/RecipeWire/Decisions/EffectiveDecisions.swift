import RecipeJSON

// MARK: - Which decisions count

/// How a decision is named by the one decided after it: the decider that wrote it
/// and the offset of its command. Written `<decider>:<offset>` (`follows`).
///
/// A decider takes a new, random name each time it (re)starts deciding a
/// partition, and decides each command at most once under one name, so a link
/// names one decision: the decision that was the state the next one was decided on.
public struct DecisionLink: Sendable, Hashable, CustomStringConvertible {
    public var decider: String
    public var offset: Int64

    public init(decider: String, offset: Int64) {
        self.decider = decider
        self.offset = offset
    }

    /// Reads `<decider>:<offset>`; nil for any other text. In UTF-8, not characters:
    /// every decision read holds one, and the text is ASCII when it is valid.
    public init?(_ text: String) {
        var text = text
        // In place, over the contiguous UTF-8, not through the generic UTF-8 view.
        guard let link = text.withUTF8({ Self(utf8: UnsafeRawBufferPointer($0), sameNameAs: nil) }) else { return nil }
        self = link
    }

    /// Reads `<decider>:<offset>` from its UTF-8; its name is `known` when it is
    /// spelled the same (no string made for it then).
    init?(utf8: UnsafeRawBufferPointer, sameNameAs known: String?) {
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = UnsafeRawBufferPointer(rebasing: utf8[..<colon])
        guard !name.isEmpty, name.count <= Self.maxDeciderLength, name.allSatisfy(RecipeTopics.isNameByte),
              let offset = CanonicalDecimal.value(utf8[(colon + 1)...]) else { return nil }
        var known = known
        let same = known?.withUTF8 { JSONScanner.same(UnsafeRawBufferPointer($0), name) } ?? false
        self.init(decider: same ? known! : String(decoding: name, as: UTF8.self), offset: Int64(offset))
    }

    public var description: String { "\(decider):\(offset)" }

    /// Longest decider name read.
    public static let maxDeciderLength = 64

    /// Whether `name` can name a decider: 1 to 64 ASCII letters, digits, `.`, `_`, `-`.
    public static func isDeciderName(_ name: String) -> Bool {
        var name = name
        // Over the contiguous bytes, not the generic walk of a `UTF8View`.
        return name.withUTF8 { !$0.isEmpty && $0.count <= maxDeciderLength && $0.allSatisfy(RecipeTopics.isNameByte) }
    }
}

/// The one rule every reader of the decisions topic applies to tell the decisions
/// that count (effective) from the others: read each partition in log order, and
/// a decision is effective when it follows the partition's last effective decision
/// (`follows` names it; the first effective decision follows none) and is about a
/// later command. Nothing else is: a second decision of a command, one a paused decider
/// wrote (it follows its own decisions, which did not count), one on another partition
/// than its command's, a record that is not a decision. So a partition's effective
/// decisions form one chain, each decided against the state its predecessors left,
/// whatever deciders raced: what one decider alone would have written. Nothing here
/// trusts the broker beyond keeping a partition's records in order (no transactions).
///
/// ```swift
/// var effective = EffectiveDecisions()   // then, for each decision read, in log order per partition:
/// if effective.admit(decision, onPartition: record.partition) { fold(decision) }
/// ```
public struct EffectiveDecisions: Sendable {
    /// The last effective decision of each partition read so far.
    public private(set) var tails: [Int32: DecisionLink] = [:]

    public init() {}

    /// Starts from known tails (a reader resuming where it stopped).
    public init(tails: [Int32: DecisionLink]) {
        self.tails = tails
    }

    /// Whether `decision`, read next on `partition` of the decisions topic, is
    /// effective; if it is, it becomes the partition's tail.
    public mutating func admit(_ decision: DecisionRecord, onPartition partition: Int32) -> Bool {
        guard let link = Self.link(of: decision, onPartition: partition, after: tails[partition]) else { return false }
        tails[partition] = link
        return true
    }

    /// The same rule for a reader that holds a partition's tail itself while it reads a run
    /// of that partition's records (and sets it after, `setTail`): the link of `decision`,
    /// read next on `partition`, when it is effective after the decision `tail`; else nil.
    public static func link(of decision: borrowing DecisionRecord, onPartition partition: Int32, after tail: DecisionLink?) -> DecisionLink? {
        guard decision.partition == partition, let link = decision.link,
              admits(link, following: decision.follows, after: tail) else { return nil }
        return link
    }

    /// The same rule for a decision of `partition` known by its link and the one it
    /// follows (a decider reading back its own, without decoding them again).
    public mutating func admit(_ link: DecisionLink, following follows: DecisionLink?, onPartition partition: Int32) -> Bool {
        guard Self.admits(link, following: follows, after: tails[partition]) else { return false }
        tails[partition] = link
        return true
    }

    /// Whether the decision `link`, following `follows`, is effective after the decision `tail`.
    private static func admits(_ link: DecisionLink, following follows: DecisionLink?, after tail: DecisionLink?) -> Bool {
        guard follows == tail else { return false }
        if let tail, link.offset <= tail.offset { return false }
        return true
    }

    /// Sets the last effective decision of `partition`, as a reader judged it with `admits`.
    public mutating func setTail(_ tail: DecisionLink?, of partition: Int32) {
        tails[partition] = tail
    }

    /// The command offset after the last effective decision of `partition`: where deciding goes on.
    public func nextCommandOffset(_ partition: Int32) -> Int64 {
        tails[partition].map { $0.offset + 1 } ?? 0
    }
}
