import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire

// MARK: - Export

/// Writes a `RecipeDocument` as a schema.org `Recipe` JSON-LD object, which
/// `SchemaOrgImport` reads back to the same document.
public enum SchemaOrgExport {
    /// The Recipe node as a JSON value:
    ///
    /// - `@context` `"https://schema.org"`, `@type` `"Recipe"`, `name`;
    /// - when present: `description`, `image`, `prepTime`, `cookTime`, `totalTime`, `url`;
    /// - `recipeYield`: the yield text, the servings as text (`"4"`), or both as a list
    ///   (`["12 cookies", "4"]`);
    /// - `keywords`: the tag names joined by `", "`;
    /// - `recipeIngredient`: the lines' text, each section opened by a heading line `"Section:"`;
    /// - `recipeInstructions`: `HowToStep`s; a run of steps with a section becomes a
    ///   `HowToSection` with that `name` and the steps as `itemListElement`;
    /// - `nutrition`: a `NutritionInformation` with schema.org's property for each nutrient
    ///   stated, as text with its unit (`"calories": "240 kcal"`, `"fatContent": "9.5 g"`), and
    ///   `servingSize`;
    /// - `version` and `dateModified` (RFC 3339) when given.
    public static func jsonValue(_ document: RecipeDocument, version: Int? = nil, updated: Timestamp? = nil) -> JSONValue {
        var node: [String: JSONValue] = [
            "@context": .string("https://schema.org"),
            "@type": .string("Recipe"),
            "name": .string(document.name),
        ]
        node["description"] = document.description.map(JSONValue.string)
        node["image"] = document.image.map(JSONValue.string)
        node["prepTime"] = document.prepTime.map(JSONValue.string)
        node["cookTime"] = document.cookTime.map(JSONValue.string)
        node["totalTime"] = document.totalTime.map(JSONValue.string)
        node["url"] = document.sourceUrl.map(JSONValue.string)
        switch (document.recipeYield, document.servings) {
        case let (text?, servings?): node["recipeYield"] = .array([.string(text), .string(String(servings))])
        case let (text?, nil): node["recipeYield"] = .string(text)
        case let (nil, servings?): node["recipeYield"] = .string(String(servings))
        case (nil, nil): break
        }
        if !document.tags.isEmpty {
            node["keywords"] = .string(document.tags.joined(separator: ", "))
        }
        if !document.ingredients.isEmpty {
            node["recipeIngredient"] = .array(ingredientLines(document.ingredients).map(JSONValue.string))
        }
        if !document.instructions.isEmpty {
            node["recipeInstructions"] = .array(instructionNodes(document.instructions))
        }
        node["nutrition"] = document.nutrition.map(nutritionNode)
        node["version"] = version.map { .integer(Int64($0)) }
        node["dateModified"] = updated.map { .string(RFC3339.string($0)) }
        return .object(node)
    }

    /// The JSON-LD as UTF-8: keys sorted, so the same document always gives the same bytes.
    public static func jsonLD(_ document: RecipeDocument, version: Int? = nil, updated: Timestamp? = nil) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A JSONValue holds only finite numbers, strings, lists and objects: encoding it cannot fail.
        return try! encoder.encode(jsonValue(document, version: version, updated: updated))
    }

    /// A `<script type="application/ld+json">` element for a page. `<`, `>` and `&` are
    /// written as `\u003c`, `\u003e`, `\u0026` (the same JSON), so no text can close the script.
    public static func scriptElement(_ document: RecipeDocument, version: Int? = nil, updated: Timestamp? = nil) -> String {
        let json = String(decoding: jsonLD(document, version: version, updated: updated), as: UTF8.self)
        var escaped = ""
        escaped.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": escaped += "\\u003c"
            case ">": escaped += "\\u003e"
            case "&": escaped += "\\u0026"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "<script type=\"application/ld+json\">\(escaped)</script>"
    }

    // MARK: - Parts

    /// schema.org has no ingredient groups; a heading line ending in ":" before each group is
    /// how pages write them, and what the import reads back as the section.
    private static func ingredientLines(_ ingredients: [DocumentIngredient]) -> [String] {
        var lines: [String] = []
        var section: String?
        for ingredient in ingredients {
            if let heading = ingredient.section, heading != section {
                lines.append(heading + ":")
            }
            section = ingredient.section ?? section
            lines.append(ingredient.text)
        }
        return lines
    }

    private static func instructionNodes(_ steps: [DocumentStep]) -> [JSONValue] {
        var nodes: [JSONValue] = []
        var index = steps.startIndex
        while index < steps.endIndex {
            let section = steps[index].section
            var end = index
            while end < steps.endIndex, steps[end].section == section { end += 1 }
            let run = steps[index..<end].map(howToStep)
            if let section {
                nodes.append(.object([
                    "@type": .string("HowToSection"), "name": .string(section), "itemListElement": .array(run),
                ]))
            } else {
                nodes.append(contentsOf: run)
            }
            index = end
        }
        return nodes
    }

    private static func nutritionNode(_ nutrition: Nutrition) -> JSONValue {
        var node: [String: JSONValue] = ["@type": .string("NutritionInformation")]
        for (nutrient, property) in NutritionValues.properties {
            if let amount = nutrition.amounts[nutrient] { node[property] = .string(NutritionValues.written(amount, of: nutrient)) }
        }
        node["servingSize"] = nutrition.servingSize.map(JSONValue.string)
        return .object(node)
    }

    private static func howToStep(_ step: DocumentStep) -> JSONValue {
        .object(["@type": .string("HowToStep"), "text": .string(step.text)])
    }
}
