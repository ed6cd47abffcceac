import Foundation
import RecipeDomain
import RecipeGenerators
@testable import RecipeWire
import Testing

/// encode → decode gives the envelope back, for thousands of random commands;
/// what breaks a record-level limit comes back as `invalid` naming the field.
@Suite("Round trip")
struct RoundTripTests {
    @Test func arbitraryCommandsComeBackOrAreRejectedForTheLimitTheyBreak() throws {
        var generator = RandomCommandGenerator(seed: 7)
        var returned = 0, rejected = 0
        for _ in 0..<5000 {
            let envelope = generator.arbitraryEnvelope()
            let bytes = WireTestSupport.encoder.encode(envelope)
            let result = WireTestSupport.decode(bytes, key: envelope.recipeID.text)
            if let fields = LimitOracle.brokenFields(envelope) {
                rejected += 1
                guard case .failure(let error) = result else {
                    Issue.record("expected \(fields) to be rejected: \(envelope)")
                    continue
                }
                let field = error.field ?? "-"
                #expect(fields.contains(field), "expected one of \(fields): \(error)")
                #expect(error.code == (field == "id" && envelope.commandID.isEmpty ? .malformed : .invalid), "\(error)")
                #expect(error.message.contains(field), "\(error)")
                // An id holding a control character is not repeated in the refusal (nor in its decision).
                let shownID = LimitOracle.hasControl(envelope.commandID, allowingLines: false) ? nil : envelope.commandID
                #expect(error.commandID == shownID && error.recipeID == envelope.recipeID)
            } else {
                returned += 1
                let decoded = try result.get()
                #expect(decoded.envelope == envelope)
                #expect(decoded.source == "recipes-cli")
                #expect(decoded.typeVersion == WireFormat.currentVersion(of: envelope.command.kind))
                #expect(Self.amountBits(decoded.envelope.command) == Self.amountBits(envelope.command))
                // Canonical: what was read is written back to the same bytes.
                #expect(WireTestSupport.encoder.encode(decoded.envelope) == bytes)
            }
        }
        #expect(returned > 2500 && rejected > 200, "returned \(returned), rejected \(rejected)")
    }

    @Test func plausibleCommandsComeBackExactly() throws {
        for envelope in RandomEnvelopes.mixed(count: 6000, seed: 99) where LimitOracle.brokenFields(envelope) == nil {
            let decoded = try WireTestSupport.decode(WireTestSupport.encoder.encode(envelope), key: envelope.recipeID.text).get()
            #expect(decoded.envelope == envelope)
        }
    }

    @Test func amountsComeBackBitForBit() throws {
        var random = SplitMix64(seed: 5)
        var amounts: [Double] = [1.0 / 3, 2.0 / 3, 0.1, 0.2 + 0.1, 1e-300, 999_999.999_999_999_9, 1_000_000, 123.456,
                                 0.000_001, 4503599627370496.5, 0.5, 1e-7, 2.5e-5, 9007199254740992, .leastNonzeroMagnitude]
        for _ in 0..<3000 {
            // Any finite positive double up to the limit, drawn from its bits.
            let value = Double(bitPattern: random.next() >> 2) // exponents up to ~2^511
            if RecipeLimits.isAllowedAmount(value) { amounts.append(value) }
            amounts.append(Double(random.next() % 1_000_000_000) / 1000)
            amounts.append(random.unitInterval() * RecipeLimits.maxIngredientAmount)
        }
        for amount in amounts where RecipeLimits.isAllowedAmount(amount) {
            let envelope = GoldenCases.envelope(.ingredientAdded(name: "x", amount: amount, metric: "g", ingredientID: nil))
            let decoded = try WireTestSupport.decode(WireTestSupport.encoder.encode(envelope)).get()
            guard case .ingredientAdded(let line, _) = decoded.envelope.command, let back = line.amount else {
                Issue.record("wrong command")
                continue
            }
            #expect(back.bitPattern == amount.bitPattern, "\(amount) came back as \(back)")
        }
    }

    @Test func timesComeBackToTheMillisecond() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<3000 {
            let milliseconds = Int64(random.int(in: Int(RFC3339.earliest.millisecondsSinceEpoch)...Int(RFC3339.latest.millisecondsSinceEpoch)))
            let envelope = GoldenCases.envelope(.recipeSaved, milliseconds: milliseconds - GoldenCases.time.millisecondsSinceEpoch)
            let decoded = try WireTestSupport.decode(WireTestSupport.encoder.encode(envelope)).get()
            #expect(decoded.envelope.time == envelope.time)
        }
    }

    static func amountBits(_ command: RecipeCommand) -> [UInt64] {
        switch command {
        case .ingredientAdded(let line, _): [line.amount, line.amountMax].compactMap { $0?.bitPattern }
        case .ingredientUpdated(_, let changes): [changes.amount.newValue, changes.amountMax.newValue].compactMap { $0?.bitPattern }
        case .draftContentSet(let draft): draft.ingredients.flatMap { [$0.line.amount, $0.line.amountMax].compactMap { $0?.bitPattern } }
        default: []
        }
    }
}

/// An independent statement of the record-level limits (from RecipeLimits and the
/// schemas in Schemas/commands/), to check the decoder against: the first field a
/// command breaks.
enum LimitOracle {
    static func tooLong(_ text: String, _ limit: Int) -> Bool { text.unicodeScalars.count > limit }
    static func badAmount(_ amount: Double) -> Bool {
        !(amount >= RecipeLimits.minIngredientAmount && amount <= RecipeLimits.maxIngredientAmount)
    }

    /// A C0 control character; tab and newline count only where lines are not allowed.
    static func hasControl(_ text: String, allowingLines: Bool) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 && !(allowingLines && ($0 == "\t" || $0 == "\n")) }
    }

    /// Not an actor name: empty, too long, not NFC (Foundation's), or holding a space, a
    /// control or `#`.
    static func badActor(_ name: String) -> Bool {
        name.isEmpty || tooLong(name, RecipeLimits.maxIdentifierLength)
            || !name.precomposedStringWithCanonicalMapping.utf8.elementsEqual(name.utf8)
            || name.unicodeScalars.contains {
                $0 == "#" || $0.properties.isWhitespace || $0.properties.generalCategory == .control
            }
    }

    /// The fields the decoder may name for `envelope`, nil when it must be read: any string
    /// holding a control character (the first in the record is named), else the first broken limit.
    static func brokenFields(_ envelope: CommandEnvelope) -> Set<String>? {
        let controls = controlFields(envelope)
        if !controls.isEmpty { return controls }
        return brokenField(envelope).map { [$0] }
    }

    /// The paths of the strings of the encoded record that hold a control character but tab
    /// and newline, found with Foundation's JSON reader.
    static func controlFields(_ envelope: CommandEnvelope) -> Set<String> {
        guard let record = try? JSONSerialization.jsonObject(with: Data(WireTestSupport.encoder.encode(envelope))) else { return ["-"] }
        var fields: Set<String> = []
        func walk(_ value: Any, _ path: String) {
            switch value {
            case let text as String: if hasControl(text, allowingLines: true) { fields.insert(path) }
            case let object as [String: Any]: for (key, member) in object { walk(member, path.isEmpty ? key : "\(path).\(key)") }
            case let array as [Any]: for (index, element) in array.enumerated() { walk(element, "\(path)[\(index)]") }
            default: break
            }
        }
        walk(record, "")
        return fields
    }

    static func brokenField(_ envelope: CommandEnvelope) -> String? {
        if envelope.commandID.isEmpty || tooLong(envelope.commandID, RecipeLimits.maxIdentifierLength) { return "id" }
        if hasControl(envelope.commandID, allowingLines: false) { return "id" }
        if badActor(envelope.actor) { return "actor" }
        if let revision = envelope.expectedRevision, revision < 0 { return "expectedrevision" }
        switch envelope.command {
        case .titleChanged(let title):
            return tooLong(title, RecipeLimits.maxTitleLength) ? "data.title" : nil
        case .servingsChanged(let servings):
            return RecipeLimits.servings.contains(servings) ? nil : "data.servings"
        case .imageChanged(let url):
            return url.map { tooLong($0, RecipeLimits.maxImageURLLength) } == true ? "data.url" : nil
        case .ingredientAdded(let line, let id):
            return brokenField(line, "data") ?? (id.map { tooLong($0, RecipeLimits.maxIdentifierLength) } == true ? "data.ingredientId" : nil)
        case .ingredientUpdated(_, let changes):
            if let name = changes.name, tooLong(name, RecipeLimits.maxIngredientNameLength) { return "data.name" }
            if let amount = changes.amount.newValue, badAmount(amount) { return "data.amount" }
            if let amount = changes.amountMax.newValue, badAmount(amount) { return "data.amountMax" }
            if let unit = changes.unit.newValue, tooLong(unit, RecipeLimits.maxUnitLength) { return "data.unit" }
            if let note = changes.note.newValue, tooLong(note, RecipeLimits.maxIngredientNoteLength) { return "data.note" }
            if let section = changes.section.newValue, tooLong(section, RecipeLimits.maxSectionLength) { return "data.section" }
            if let text = changes.text.newValue, tooLong(text, RecipeLimits.maxIngredientTextLength) { return "data.text" }
            return nil
        case .instructionAdded(let description, let position, let id, let section):
            if tooLong(description, RecipeLimits.maxDescriptionLength) { return "data.description" }
            if let position, !(1...RecipeLimits.maxInstructions + 1).contains(position) { return "data.position" }
            if let id, tooLong(id, RecipeLimits.maxIdentifierLength) { return "data.instructionId" }
            return section.map { tooLong($0, RecipeLimits.maxSectionLength) } == true ? "data.section" : nil
        case .instructionUpdated(_, let description, let section):
            if let description, tooLong(description, RecipeLimits.maxDescriptionLength) { return "data.description" }
            return section.newValue.map { tooLong($0, RecipeLimits.maxSectionLength) } == true ? "data.section" : nil
        case .descriptionChanged(let description):
            return description.map { tooLong($0, RecipeLimits.maxRecipeDescriptionLength) } == true ? "data.description" : nil
        case .yieldChanged(let yield):
            return yield.map { tooLong($0, RecipeLimits.maxYieldLength) } == true ? "data.yield" : nil
        case .timesChanged(let prep, let cook, let total):
            for (update, field) in [(prep, "data.prepTime"), (cook, "data.cookTime"), (total, "data.totalTime")] {
                if let text = update.newValue, tooLong(text, RecipeLimits.maxDurationLength) { return field }
            }
            return nil
        case .sourceChanged(let url):
            return url.map { tooLong($0, RecipeLimits.maxSourceURLLength) } == true ? "data.url" : nil
        case .nutritionChanged(let changes):
            for nutrient in Nutrition.Nutrient.allCases {
                if let amount = changes.update(of: nutrient).newValue, !(0...nutrient.maximum).contains(amount) {
                    return "data.\(nutrient.rawValue)"
                }
            }
            return changes.servingSize.newValue.map { tooLong($0, RecipeLimits.maxServingSizeLength) } == true ? "data.servingSize" : nil
        case .draftContentSet(let draft):
            if tooLong(draft.title, RecipeLimits.maxTitleLength) { return "data.title" }
            if let servings = draft.servings, !RecipeLimits.servings.contains(servings) { return "data.servings" }
            let texts: [(String?, Int, String)] = [
                (draft.image, RecipeLimits.maxImageURLLength, "data.image"),
                (draft.description, RecipeLimits.maxRecipeDescriptionLength, "data.description"),
                (draft.yield, RecipeLimits.maxYieldLength, "data.yield"),
                (draft.prepTime, RecipeLimits.maxDurationLength, "data.prepTime"),
                (draft.cookTime, RecipeLimits.maxDurationLength, "data.cookTime"),
                (draft.totalTime, RecipeLimits.maxDurationLength, "data.totalTime"),
                (draft.sourceUrl, RecipeLimits.maxSourceURLLength, "data.sourceUrl"),
            ]
            for (text, limit, field) in texts { if let text, tooLong(text, limit) { return field } }
            for (index, item) in draft.ingredients.enumerated() {
                let prefix = "data.ingredients[\(index)]"
                if let id = item.id, tooLong(id, RecipeLimits.maxIdentifierLength) { return prefix + ".ingredientId" }
                if let field = brokenField(item.line, prefix) { return field }
            }
            for (index, item) in draft.instructions.enumerated() {
                let prefix = "data.instructions[\(index)]"
                if let id = item.id, tooLong(id, RecipeLimits.maxIdentifierLength) { return prefix + ".instructionId" }
                if tooLong(item.description, RecipeLimits.maxDescriptionLength) { return prefix + ".description" }
                if let section = item.section, tooLong(section, RecipeLimits.maxSectionLength) { return prefix + ".section" }
            }
            for (index, tag) in draft.tags.enumerated() where tooLong(tag, RecipeLimits.maxTagTextLength) {
                return "data.tags[\(index)]"
            }
            return nil
        case .instructionMoved(_, let position):
            return (1...RecipeLimits.maxInstructions).contains(position) ? nil : "data.position"
        case .tagAdded(let text), .tagChanged(_, let text):
            return tooLong(text, RecipeLimits.maxTagTextLength) ? "data.text" : nil
        case .accessGranted(let grantee, _), .accessRevoked(let grantee):
            return badActor(grantee) ? "data.grantee" : nil
        case .ownershipTransferred(let newOwner):
            return badActor(newOwner) ? "data.newOwner" : nil
        case .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted, .ingredientRemoved, .instructionRemoved, .tagRemoved:
            return nil
        }
    }

    static func brokenField(_ line: IngredientLine, _ prefix: String) -> String? {
        if tooLong(line.name, RecipeLimits.maxIngredientNameLength) { return prefix + ".name" }
        if let amount = line.amount, badAmount(amount) { return prefix + ".amount" }
        if let amount = line.amountMax, badAmount(amount) { return prefix + ".amountMax" }
        if let unit = line.unit, tooLong(unit, RecipeLimits.maxUnitLength) { return prefix + ".unit" }
        if let note = line.note, tooLong(note, RecipeLimits.maxIngredientNoteLength) { return prefix + ".note" }
        if let section = line.section, tooLong(section, RecipeLimits.maxSectionLength) { return prefix + ".section" }
        if let text = line.text, tooLong(text, RecipeLimits.maxIngredientTextLength) { return prefix + ".text" }
        return nil
    }
}
