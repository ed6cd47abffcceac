import Foundation
import RecipeDomain
import RecipeWire
import Testing

/// The bounds the schemas state are `RecipeLimits`, field by field, with none
/// missing and none extra; and the decoder (`RecordLimits`) draws each bound where
/// the schema does: a record at the bound is read, one just past it is `invalid`.
@Suite("Limits: schemas, RecipeLimits and the decoder agree")
struct LimitTests {
    /// A field's bounds as JSON Schema keywords (`maxLength`, `minimum`, `maximum`,
    /// `exclusiveMinimum`…), and their values.
    typealias Bounds = [String: Double]

    /// The bounds every field of `kind`'s data has at its newest version, as its description
    /// states them (`FieldSpec.Bound`, in terms of `RecipeLimits`). Fields without one are
    /// unbounded on purpose: ids and tag names that are only looked up (see `RecordLimits`).
    static func bounds(of kind: RecipeCommand.Kind) -> [String: Bounds] {
        var bounds: [String: Bounds] = [:]
        for field in CommandDescription.all[RecipeCommand.Kind.allCases.firstIndex(of: kind)!].fields {
            switch field.bound {
            case .maxLength(let limit): bounds[field.name] = ["maxLength": Double(limit)]
            case .actorName: bounds[field.name] = ["maxLength": Double(RecipeLimits.maxIdentifierLength)]
            case .range(let range): bounds[field.name] = ["minimum": Double(range.lowerBound), "maximum": Double(range.upperBound)]
            case .atLeast(let least): bounds[field.name] = ["minimum": Double(least)]
            case .amount: bounds[field.name] = ["minimum": RecipeLimits.minIngredientAmount, "maximum": RecipeLimits.maxIngredientAmount]
            case .measure(let range): bounds[field.name] = ["minimum": range.lowerBound, "maximum": range.upperBound]
            case .none, .oneOf, .time: break
            }
        }
        return bounds
    }

    /// The bounds of the versions before the current one, frozen as they were written.
    static func olderBounds(of kind: RecipeCommand.Kind, version: Int) -> [String: Bounds] {
        let identifier: Bounds = ["maxLength": Double(RecipeLimits.maxIdentifierLength)]
        let name: Bounds = ["maxLength": Double(RecipeLimits.maxIngredientNameLength)]
        let metric: Bounds = ["maxLength": Double(RecipeLimits.maxMetricLength)]
        let amount: Bounds = ["minimum": RecipeLimits.minIngredientAmount, "maximum": RecipeLimits.maxIngredientAmount]
        let description: Bounds = ["maxLength": Double(RecipeLimits.maxDescriptionLength)]
        switch (kind, version) {
        case (.ingredientAdded, 1): return ["name": name, "amount": amount, "metric": metric, "ingredientId": identifier]
        case (.ingredientUpdated, 1): return ["name": name, "amount": amount, "metric": metric]
        case (.instructionAdded, 1):
            return ["description": description, "instructionId": identifier,
                    "position": ["minimum": 1, "maximum": Double(RecipeLimits.maxInstructions + 1)]]
        case (.instructionUpdated, 1): return ["description": description]
        default:
            Issue.record("\(kind.rawValue) v\(version): state its bounds in LimitTests.olderBounds")
            return [:]
        }
    }

    static let boundKeywords: Set<String> = [
        "maxLength", "minLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "maxItems", "minItems",
        "maxProperties", "minProperties", "multipleOf",
    ]

    /// The bounds a schema states for each property of `data`.
    static func schemaBounds(_ kind: RecipeCommand.Kind, version: Int) throws -> [String: Bounds] {
        let schema = try SchemaFile.load("commands/\(kind.rawValue).v\(version).schema.json")
        var bounds: [String: Bounds] = [:]
        for (field, property) in schema["properties"] as? [String: [String: Any]] ?? [:] {
            let stated = property.filter { Self.boundKeywords.contains($0.key) }.compactMapValues { ($0 as? NSNumber)?.doubleValue }
            if !stated.isEmpty { bounds[field] = stated }
        }
        return bounds
    }

    @Test(arguments: RecipeCommand.Kind.allCases)
    func everyBoundInTheDataSchemaIsTheDomainsLimit(kind: RecipeCommand.Kind) throws {
        for version in WireFormat.knownVersions(of: kind) {
            let stated = try Self.schemaBounds(kind, version: version)
            let expected = version < WireFormat.currentVersion(of: kind) ? Self.olderBounds(of: kind, version: version) : Self.bounds(of: kind)
            for field in Set(stated.keys).union(expected.keys).sorted() {
                #expect(stated[field] ?? [:] == expected[field] ?? [:],
                        "Schemas/commands/\(kind.rawValue).v\(version).schema.json \(field): states \(stated[field] ?? [:]), RecipeLimits says \(expected[field] ?? [:]) (LimitTests.bounds(of:))")
            }
        }
    }

    @Test func theEnvelopeBoundsTheCommandIDAndTheRevision() throws {
        let properties = try #require(try SchemaFile.load("envelope.schema.json")["properties"] as? [String: [String: Any]])
        #expect(properties["id"]?["maxLength"] as? Int == RecipeLimits.maxIdentifierLength)
        #expect(properties["id"]?["minLength"] as? Int == 1)
        #expect(properties["expectedrevision"]?["minimum"] as? Int == 0)
        #expect(properties["expectedrevision"]?["maximum"] as? Int == 9_007_199_254_740_991)
    }

    // MARK: - Where the decoder draws each bound

    struct BoundaryCase {
        var label: String
        var record: [UInt8]
        /// nil: must be read; else the field the decoder must name as `invalid`.
        var brokenField: String?
    }

    /// For every bound: the golden record of the kind with that field at the bound,
    /// and just past it ("é" for text, so lengths are counted in scalars, not bytes).
    static func boundaryCases() throws -> [BoundaryCase] {
        var cases: [BoundaryCase] = []
        for kind in RecipeCommand.Kind.allCases {
            let golden = try Data(contentsOf: GoldenCases.goldenFile(kind.rawValue, version: WireFormat.currentVersion(of: kind)))
            let record = try #require(try JSONSerialization.jsonObject(with: golden) as? [String: Any])
            let fields = WireFormat.dataFields(of: kind)
            for (field, bounds) in Self.bounds(of: kind).sorted(by: { $0.key < $1.key }) {
                let isInteger = fields.first { $0.name == field }?.type == .integer
                for (keyword, bound) in bounds {
                    let values: (inside: Any, outside: Any)
                    switch keyword {
                    case "maxLength":
                        values = (String(repeating: "é", count: Int(bound)), String(repeating: "é", count: Int(bound) + 1))
                    case "minimum": values = isInteger ? (Int(bound), Int(bound) - 1) : (bound, bound.nextDown)
                    case "maximum": values = isInteger ? (Int(bound), Int(bound) + 1) : (bound, bound + 0.5)
                    case "exclusiveMinimum": values = isInteger ? (Int(bound) + 1, Int(bound)) : (bound + 1e-9, bound)
                    default:
                        Issue.record("no boundary values for \(keyword); add them here")
                        continue
                    }
                    for (value, broken) in [(values.inside, false), (values.outside, true)] {
                        var changed = record
                        var data = changed["data"] as? [String: Any] ?? [:]
                        data[field] = value
                        changed["data"] = data
                        cases.append(BoundaryCase(
                            label: "\(kind.rawValue) \(field) \(broken ? "past" : "at") \(keyword) \(bound)",
                            record: Array(try JSONSerialization.data(withJSONObject: changed)),
                            brokenField: broken ? "data.\(field)" : nil))
                    }
                }
            }
        }
        return cases
    }

    @Test func theDecoderAndTheSchemaDrawEveryBoundAlike() throws {
        let cases = try Self.boundaryCases()
        #expect(cases.count >= 40, "\(cases.count) boundary records")
        let directory = try WireTestSupport.temporaryDirectory("limits")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        for (index, boundary) in cases.enumerated() {
            let file = directory.appendingPathComponent("boundary-\(index).json")
            try Data(boundary.record).write(to: file)
            files.append(file)
            switch (WireTestSupport.decode(boundary.record), boundary.brokenField) {
            case (.success, nil): break
            case (.failure(let error), let field?):
                #expect(error.code == .invalid && error.field == field, "\(boundary.label): \(error)")
            case (let result, _):
                Issue.record("\(boundary.label): the decoder gave \(result)")
            }
        }
        let verdicts = try SchemaValidator.validate(files.map { ("envelope.schema.json", $0) })
        for (boundary, verdict) in zip(cases, verdicts) {
            #expect(verdict.isValid == (boundary.brokenField == nil), "\(boundary.label): the schema says \(verdict.error ?? "valid")")
        }
    }
}
