import Foundation
import Kafka
import RecipeDomain
import RecipeProjection
import RecipeWire
import Testing

@Suite("Records that cannot be decoded never stop the projector")
struct PoisonTests {
    @Test("bad JSON, an unknown type, key ≠ subject and a value over the record limit, published with kcat among good records, land in rejections; the good ones apply")
    func poisonAmongGood() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        let id = newRecipeID()
        try fixture.send(id, [.titleChanged(title: "Soup")])

        let encoder = RecordEncoder(source: "kcat")
        let good = String(decoding: encoder.encode(CommandEnvelope(
            commandID: "good-1", recipeID: id, actor: "kcat", time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000),
            command: .ingredientAdded(name: "Leek", amount: 2, metric: "pc", ingredientID: nil))), as: UTF8.self)
        let unknownType = good.replacingOccurrences(of: WireFormat.typeName(.ingredientAdded, version: WireFormat.currentVersion(of: .ingredientAdded)),
                                                   with: "recipes.Teleported.v1")
            .replacingOccurrences(of: "good-1", with: "bad-2")
        let otherSubject = good.replacingOccurrences(of: id.text, with: newRecipeID().text).replacingOccurrences(of: "good-1", with: "bad-3")
        let huge = "{\"pad\":\"" + String(repeating: "x", count: WireFormat.maxRecordSize) + "\"}"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poison-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let values = ["{not json", unknownType, otherSubject, huge, good]
        for (index, value) in values.enumerated() {
            let file = directory.appendingPathComponent("\(index).json")
            try Data(value.utf8).write(to: file)
            // One record per file (-l would split lines); the key is the recipe id.
            let kcat = Process()
            kcat.executableURL = URL(fileURLWithPath: "/usr/bin/kcat")
            kcat.arguments = ["-P", "-b", fixture.kafka.bootstrapServers, "-t", fixture.topic, "-k", id.text,
                              "-X", "message.max.bytes=4000000", "-H", "content-type=application/cloudevents+json", file.path]
            kcat.standardError = FileHandle.nullDevice
            try kcat.run()
            kcat.waitUntilExit()
            #expect(kcat.terminationStatus == 0, "kcat published record \(index)")
        }
        try fixture.send(id, [.ingredientAdded(name: "Salt", amount: 1, metric: "tsp", ingredientID: nil), .recipeSaved])
        let summary = try fixture.project()

        let model = try fixture.readModel()
        let reasons = try model.rejections().map(\.reason.code).sorted()
        #expect(reasons == ["keyMismatch", "malformed", "tooLarge", "unknownType"])
        #expect(summary.rejected == 4)
        #expect(try model.detail(id).ingredients.map(\.name) == ["Leek", "Salt"])
        let outcomes = try model.history(id).items.map(\.outcome)
        #expect(outcomes == [.accepted, .rejected, .rejected, .rejected, .rejected, .accepted, .accepted, .accepted])
    }

    @Test("a record on a partition its key does not hash to is rejected as wrongPartition")
    func wrongPartition() throws {
        let fixture = try ProjectionFixture(partitions: 4)
        let id = newRecipeID()
        let right = KafkaPartitioner.partition(forKey: RecordKey.key(forRecipe: id), partitionCount: 4)
        let wrong = (right + 1) % 4
        let value = RecordEncoder(source: "kcat").encode(CommandEnvelope(
            commandID: "misrouted", recipeID: id, actor: "x", time: Timestamp(millisecondsSinceEpoch: 0),
            command: .titleChanged(title: "Lost")))
        let kcat = Process()
        kcat.executableURL = URL(fileURLWithPath: "/usr/bin/kcat")
        kcat.arguments = ["-P", "-b", fixture.kafka.bootstrapServers, "-t", fixture.topic, "-k", id.text, "-p", "\(wrong)"]
        let input = Pipe()
        kcat.standardInput = input
        try kcat.run()
        input.fileHandleForWriting.write(Data(value))
        try input.fileHandleForWriting.close()
        kcat.waitUntilExit()
        try fixture.project()
        let rejections = try fixture.readModel().rejections()
        #expect(rejections.map(\.reason.code) == ["wrongPartition"])
        #expect(rejections.first?.position.hasPrefix("\(wrong):") == true)
    }

    @Test("a record whose key or subject is not a recipe id (a NUL, a control character, non-ASCII, either spelling of è), produced straight to the topic, is malformed and reaches no recipe")
    func idsOutOfTheForm() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        let id = newRecipeID()
        try fixture.send(id, [.titleChanged(title: "Alice's soup"),
                                    .ingredientAdded(name: "Leek", amount: 2, metric: "pcs", ingredientID: nil), .recipeSaved])
        // Committed first: the store cut text at a NUL, so `id\0x` loaded the recipe's rows and wrote over them.
        try fixture.project()

        // Each a key and the subject as the record's JSON spells it.
        let aliases: [(key: [UInt8], subject: String)] = [
            (Array((id.text + "\0x").utf8), id.text + "\\u0000x"),
            (Array((id.text + "\u{1}").utf8), id.text + "\\u0001"),
            (Array((id.text + "\u{7F}").utf8), id.text + "\u{7F}"),
            (Array("cr\u{E8}me-x1".utf8), "cr\u{E8}me-x1"),
            (Array("cre\u{300}me-x1".utf8), "cre\u{300}me-x1"),
            (Array(id.text.utf8), id.text + "\\u0000x"),
            (Array((id.text + "\0x").utf8), id.text),
        ]
        let encoder = RecordEncoder(source: "mallory")
        var messages: [KafkaProducerMessage] = []
        for (index, alias) in aliases.enumerated() {
            let commands: [RecipeCommand] = [.titleChanged(title: "Mallory's"),
                                             .ingredientAdded(name: "Salt", amount: 1, metric: "g", ingredientID: nil), .recipeSaved]
            for (number, command) in commands.enumerated() {
                let good = String(decoding: encoder.encode(CommandEnvelope(
                    commandID: "m-\(index)-\(number)", recipeID: id, actor: "mallory",
                    time: Timestamp(millisecondsSinceEpoch: 1_796_000_100_000), command: command)), as: UTF8.self)
                let value = good.replacingOccurrences(of: #""subject":"\#(id)""#, with: #""subject":"\#(alias.subject)""#)
                messages.append(KafkaProducerMessage(topic: fixture.topic, key: alias.key, value: Array(value.utf8)))
            }
        }
        for result in fixture.producer.sendBatch(messages) { _ = try result.get() }
        let summary = try fixture.project()

        #expect(summary.rejected == messages.count)
        #expect(summary.accepted == 0)
        let model = try fixture.readModel()
        let rejections = try model.rejections(limit: 100)
        #expect(rejections.count == messages.count)
        #expect(rejections.allSatisfy { $0.reason.code == "malformed" && $0.reason.message.contains("is not a recipe id") },
                "\(rejections.map(\.reason))")
        // Filed under no recipe unless the key is one (the recipe's own, with a subject out of the form).
        #expect(Set(rejections.map(\.key)) == [nil, id.text])
        #expect(rejections.contains { $0.reason.message.contains("\"\(id)\\u{0}x\"") }, "the key, escaped")
        #expect(rejections.contains { $0.reason.message.contains(#""cre\u{300}me-x1""#) }, "the NFD spelling, escaped")

        let detail = try model.detail(id)
        #expect(detail.version == 1 && detail.title == "Alice's soup" && detail.savedBy == "alice")
        #expect(try model.history(id).items.map(\.outcome) == [.accepted, .accepted, .accepted, .rejected, .rejected, .rejected])
        #expect(try model.list().items.map(\.id) == [id.text])
    }
}
