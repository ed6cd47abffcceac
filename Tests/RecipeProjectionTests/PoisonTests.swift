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
        let otherSubject = good.replacingOccurrences(of: id, with: newRecipeID()).replacingOccurrences(of: "good-1", with: "bad-3")
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
            kcat.arguments = ["-P", "-b", fixture.kafka.bootstrapServers, "-t", fixture.topic, "-k", id,
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
        let right = KafkaPartitioner.partition(forKey: Array(id.utf8), partitionCount: 4)
        let wrong = (right + 1) % 4
        let value = RecordEncoder(source: "kcat").encode(CommandEnvelope(
            commandID: "misrouted", recipeID: id, actor: "x", time: Timestamp(millisecondsSinceEpoch: 0),
            command: .titleChanged(title: "Lost")))
        let kcat = Process()
        kcat.executableURL = URL(fileURLWithPath: "/usr/bin/kcat")
        kcat.arguments = ["-P", "-b", fixture.kafka.bootstrapServers, "-t", fixture.topic, "-k", id, "-p", "\(wrong)"]
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
}
