import Foundation
import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeGenerators
import RecipeTestSupport
import RecipeWire
import Testing

/// `recipes.committed` as the decider writes it, against what one decider alone decides.
/// (Against the detail read model, through kafka-python and kcat: RecipeHTTPTests' CommittedTopicTests.)
@Suite("The committed topic, as the decider writes it")
struct CommittedTopicTests {
    @Test("each record is the detail document (or tombstone) as of an effective decision that changed it; the last of each recipe is its state now")
    func everyRecordIsAStateTheEffectiveDecisionsMade() throws {
        // 1,500 commands a partition, all there when the decider starts: it catches up, holding its documents.
        let fixture = try DecisionFixture(partitions: 2)
        let stream = withDeletes(commandStream(count: 3_000, recipes: 60, seed: 41), every: 3)
        try fixture.send(stream)
        try decide(fixture, until: stream.count)

        let records = try fixture.records(of: fixture.topics.committed)
        let reference = try ReferenceDocuments(fixture)
        #expect(reference.saved > 0 && reference.deleted > 0, "the stream saves and deletes: \(reference.saved) saved, \(reference.deleted) deleted")
        try expectOnlyDocumentsOfEffectiveDecisions(records, reference)
        try expectLastRecordIsTheStateNow(records, reference)

        // Started again with nothing new, a decider finds the topic as it leaves it: it writes nothing.
        try decide(fixture, until: stream.count)
        #expect(try fixture.records(of: fixture.topics.committed).count == records.count)
    }

    @Test("documents of decisions that count but were never written (their decider died first) are written when a decider takes the partition")
    func whatADeadDeciderDidNotWriteIsWrittenOnTakingThePartition() throws {
        let fixture = try DecisionFixture(partitions: 2)
        let stream = withDeletes(commandStream(count: 300, recipes: 12, seed: 43), every: 3)
        try fixture.send(stream)
        // As a decider killed after its decisions landed and before any document: its chain, and nothing on recipes.committed.
        let encoder = DecisionEncoder(source: "killed")
        for (partition, decisions) in try fixture.referenceDecisions() {
            var follows: DecisionLink?
            let messages = decisions.map { decision in
                var decision = decision
                decision.decider = "killed"
                decision.follows = follows
                follows = decision.link
                return KafkaProducerMessage(topic: fixture.topics.decisions, key: decision.recipeID.map { Array($0.utf8) },
                                            value: encoder.encode(decision), partition: partition)
            }
            for result in fixture.producer.sendBatch(messages) { _ = try result.get() }
        }
        #expect(try fixture.records(of: fixture.topics.committed).isEmpty)

        let reference = try ReferenceDocuments(fixture)
        try decide(fixture, until: stream.count) { try fixture.records(of: fixture.topics.committed).count >= reference.named }
        let records = try fixture.records(of: fixture.topics.committed)
        #expect(records.count == reference.named, "one record per recipe that has a document: the state each has now")
        try expectLastRecordIsTheStateNow(records, reference)
        let decisions = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(decisions.count == stream.count && decisions.ignored == 0, "nothing was decided again")
    }

    @Test("an older record that lands after a recipe's newer one (a paused decider's, late) is followed by the document as it stands")
    func aLateOlderRecordIsAnsweredWithTheCurrentDocument() throws {
        let fixture = try DecisionFixture(partitions: 1)
        let stream = commandStream(count: 300, recipes: 10, seed: 47)
        try fixture.send(stream)
        let reference = try ReferenceDocuments(fixture)
        let (recipe, current) = try #require(reference.now.first { $0.value.detail != nil }, "a saved recipe")
        #expect(current.offset > 0, "a document newer than the late one")

        let stop = StopFlag()
        let decider = try Decider(kafka: fixture.config, topics: fixture.topics)
        let run = Background("the decider") { try decider.run(until: { stop.isSet }, progressInterval: .seconds(60)) }
        defer { stop.set() }
        try waitFor("the decider to write every recipe's document", deadline: .seconds(30)) {
            try lastRecords(fixture.records(of: fixture.topics.committed)).count == reference.named
        }
        // What a decider paused since it wrote an older document might append when it wakes up.
        let late = KafkaProducerMessage(topic: fixture.topics.committed, key: RecordKey.key(forRecipe: recipe), value: Array(#"{"stale":true}"#.utf8),
                                        headers: [KafkaHeader(key: CommittedRecipe.positionHeaderName, value: "0:0")], partition: 0)
        let landed = try fixture.producer.send(late)
        try waitFor("the current document after the late one", deadline: .seconds(30)) {
            let last = try lastRecords(fixture.records(of: fixture.topics.committed))[recipe.text]
            return last.map { $0.offset > landed.offset && position(of: $0) == current.position } == true
        }
        let last = try #require(try lastRecords(fixture.records(of: fixture.topics.committed))[recipe.text])
        #expect(last.value == current.value(), "the document as it stands, again")
        stop.set()
        try run.value(deadline: .seconds(30))
    }

    @Test("a missing committed topic, or one with another partition count, is refused in one line")
    func missingOrMismatchedTopicIsRefused() throws {
        let missing = try DecisionFixture(partitions: 3, committedPartitions: 0)
        let refused = try runRecipes(["decide", "--brokers", missing.kafka.bootstrapServers])
        #expect(refused.status == 1)
        #expect(refused.err.split(separator: "\n").filter { !$0.hasPrefix("%") } == [
            "recipes: error: the committed topic recipes.committed does not exist: create it with 3 partitions, as many as the edits topic has (recipes topics create)",
        ])
        let mismatched = try DecisionFixture(partitions: 3, committedPartitions: 2)
        let other = try runRecipes(["decide", "--brokers", mismatched.kafka.bootstrapServers])
        #expect(other.status == 1)
        #expect(other.err.split(separator: "\n").filter { !$0.hasPrefix("%") } == [
            "recipes: error: recipes.committed has 2 partitions and recipes.edits 3: each document goes on its command's partition number, so they must be equal",
        ])
    }

    @Test("the largest document a recipe at every limit can have fits the topic's bound")
    func theLargestDocumentFitsTheBound() throws {
        // Every text at its limit, of the character with the longest JSON escape.
        func text(_ length: Int) -> String { String(repeating: "\u{1}", count: length) }
        let ingredients = (0..<RecipeLimits.maxIngredients).map { index in
            Ingredient(id: text(RecipeLimits.maxIdentifierLength - 3) + String(index), name: text(RecipeLimits.maxIngredientNameLength),
                       amount: 0.30000000000000004, amountMax: RecipeLimits.maxIngredientAmount, unit: text(RecipeLimits.maxUnitLength),
                       note: text(RecipeLimits.maxIngredientNoteLength), section: text(RecipeLimits.maxSectionLength),
                       text: text(RecipeLimits.maxIngredientTextLength))
        }
        let instructions = (0..<RecipeLimits.maxInstructions).map { index in
            Instruction(id: text(RecipeLimits.maxIdentifierLength - 3) + String(index), description: text(RecipeLimits.maxDescriptionLength),
                        order: index + 1, section: text(RecipeLimits.maxSectionLength))
        }
        let tags = (0..<RecipeLimits.maxTags).map { Tag(name: text(RecipeLimits.maxTagNameLength - 2) + String($0), payload: text(RecipeLimits.maxTagPayloadLength)) }
        let content = RecipeContent(title: text(RecipeLimits.maxTitleLength), servings: 100, image: text(RecipeLimits.maxImageURLLength),
                                    description: text(RecipeLimits.maxRecipeDescriptionLength), yield: text(RecipeLimits.maxYieldLength),
                                    prepTime: text(RecipeLimits.maxDurationLength), cookTime: text(RecipeLimits.maxDurationLength),
                                    totalTime: text(RecipeLimits.maxDurationLength), sourceUrl: text(RecipeLimits.maxSourceURLLength),
                                    nutrition: Nutrition(amounts: Dictionary(uniqueKeysWithValues: Nutrition.Nutrient.allCases.map { ($0, $0.maximum - 0.1) }),
                                                         servingSize: text(RecipeLimits.maxServingSizeLength)),
                                    ingredients: ingredients, instructions: instructions, tags: tags)
        let id = try RecipeID(String(repeating: "r", count: RecipeID.maxLength))
        let version = RecipeVersion(number: Int.max, content: content, savedAt: Timestamp(millisecondsSinceEpoch: 253_402_300_799_999),
                                    savedBy: text(WireFormat.maxRecordSize))
        let recipe = Recipe(id: id, versions: [version], draft: RecipeDraft(content: content, baseVersion: Int.max), revision: Int.max,
                            isDeleted: false, appliedCommandIDs: [])
        let document = try #require(CommittedRecipe(recipe, partition: Int32.max, offset: Int64.max))
        let size = try #require(document.value()).count
        #expect(size <= CommittedRecipe.maxValueSize, "\(size) bytes, over the bound of \(CommittedRecipe.maxValueSize)")
        #expect(size > CommittedRecipe.maxValueSize / 2, "the bound is of this order: \(size) of \(CommittedRecipe.maxValueSize)")
    }

    // MARK: - Helpers

    /// Runs a decider in this process until `count` decisions count and `settled` holds, then stops it.
    private func decide(_ fixture: DecisionFixture, until count: Int, settled: @escaping () throws -> Bool = { true }) throws {
        let stop = StopFlag()
        let decider = try Decider(kafka: fixture.config, topics: fixture.topics)
        let run = Background("the decider") { try decider.run(until: { stop.isSet }, progressInterval: .seconds(60)) }
        let watcher = try DecisionWatcher(fixture)
        defer { stop.set() }
        try watcher.waitFor(count, deadline: .seconds(30))
        try waitFor("the committed topic to be written", deadline: .seconds(30), settled)
        stop.set()
        try run.value(deadline: .seconds(30))
    }
}

/// The documents one decider alone makes: each recipe's after every accepted decision (by the
/// decision's position), and each recipe's now, at the position of the decision that last changed it.
struct ReferenceDocuments {
    /// `P:O` of an accepted decision → its recipe's document right after it (nil: a recipe never saved).
    var after: [String: (recipe: RecipeID, document: CommittedRecipe?)] = [:]
    /// Each recipe the topic names (saved at least once) → its document now.
    var now: [RecipeID: CommittedRecipe] = [:]

    init(_ fixture: DecisionFixture) throws {
        for (partition, decisions) in try fixture.referenceDecisions() {
            var recipes: [RecipeID: Recipe] = [:]
            var changedAt: [RecipeID: Int64] = [:]
            for decision in decisions {
                guard case .accepted(let events, _) = decision.outcome, let text = decision.recipeID, let commandID = decision.commandID else { continue }
                let id = try RecipeID(text)
                let before = recipes[id].flatMap { CommittedRecipe($0, partition: partition, offset: decision.offset) }
                recipes[id, default: Recipe(id: id)].record(events, ofCommand: commandID)
                let document = CommittedRecipe(recipes[id]!, partition: partition, offset: decision.offset)
                after["\(partition):\(decision.offset)"] = (id, document)
                // Told apart by what a reader sees: the document's bytes (with the same position on both sides).
                if document?.value() != before?.value() || (document == nil) != (before == nil) { changedAt[id] = decision.offset }
            }
            for (id, offset) in changedAt {
                now[id] = CommittedRecipe(recipes[id]!, partition: partition, offset: offset)
            }
        }
    }

    var named: Int { now.count }
    var saved: Int { now.values.filter { $0.detail != nil }.count }
    var deleted: Int { now.values.filter { $0.detail == nil }.count }
}

/// What every reader of the committed topic relies on, once its deciders have stopped: every
/// record is a document an effective decision made, and each recipe's last is its document now.
func expectCommittedTopicFollowsTheDecisions(_ fixture: DecisionFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let records = try fixture.records(of: fixture.topics.committed)
    let reference = try ReferenceDocuments(fixture)
    try expectOnlyDocumentsOfEffectiveDecisions(records, reference, sourceLocation: sourceLocation)
    try expectLastRecordIsTheStateNow(records, reference, sourceLocation: sourceLocation)
}

/// The position header of a committed record, as text.
func position(of record: KafkaConsumerRecord) -> String? {
    record.header(CommittedRecipe.positionHeaderName).map { String(decoding: $0, as: UTF8.self) }
}

/// The last record of each key, in log order: what compaction keeps.
func lastRecords(_ records: [KafkaConsumerRecord]) -> [String: KafkaConsumerRecord] {
    records.reduce(into: [:]) { last, record in
        if let key = record.keyString { last[key] = record }
    }
}

/// Every record is the document, byte for byte, that the recipe had right after the effective
/// decision its position names (a tombstone when deleted), on that decision's partition.
func expectOnlyDocumentsOfEffectiveDecisions(_ records: [KafkaConsumerRecord], _ reference: ReferenceDocuments,
                                             sourceLocation: SourceLocation = #_sourceLocation) throws {
    for record in records {
        let named = position(of: record)
        guard let named, let made = reference.after[named], let document = made.document else {
            let at = "\(record.topic)[\(record.partition)]@\(record.offset)"
            Issue.record("\(at): position \(named ?? "none") names no accepted decision after which its recipe has a document",
                         sourceLocation: sourceLocation)
            continue
        }
        #expect(record.keyString == made.recipe.text && record.partition == document.partition, sourceLocation: sourceLocation)
        if let value = document.value() {
            #expect(!record.hasNullValue && record.value == value, "\(named): \(String(decoding: record.value, as: UTF8.self))",
                    sourceLocation: sourceLocation)
            #expect(record.header(WireFormat.contentTypeHeaderName) == Array("application/json".utf8), sourceLocation: sourceLocation)
        } else {
            #expect(record.hasNullValue, "\(named): a tombstone, not \(String(decoding: record.value, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }
}

/// The last record of each recipe is its document now, at the position of the decision that made
/// it; a recipe never saved has none.
func expectLastRecordIsTheStateNow(_ records: [KafkaConsumerRecord], _ reference: ReferenceDocuments,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
    let last = lastRecords(records)
    #expect(Set(last.keys) == Set(reference.now.keys.map(\.text)), "the recipes named", sourceLocation: sourceLocation)
    for (id, document) in reference.now {
        guard let record = last[id.text] else { continue }
        #expect(position(of: record) == document.position, "\(id.text)", sourceLocation: sourceLocation)
        if let value = document.value() {
            #expect(!record.hasNullValue && record.value == value, "\(id.text)", sourceLocation: sourceLocation)
        } else {
            #expect(record.hasNullValue, "\(id.text): a tombstone", sourceLocation: sourceLocation)
        }
    }
}
