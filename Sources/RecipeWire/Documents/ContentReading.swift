import Foundation
import RecipeDomain

// MARK: - Reading a content

extension ContentJSON {
    /// Reads a content as `format` writes it (the store's column, `ContentFormat.stored`),
    /// member by member of the format, by its keys: a member without a value may be absent
    /// or `null`; a required member missing, or one of another type, throws the decoder's
    /// error, whose coding path says where.
    public static func read(from decoder: any Decoder, _ format: ContentFormat) throws -> RecipeContent {
        let members = try decoder.container(keyedBy: Key.self)
        var content = RecipeContent()
        for member in format.members {
            guard case .content(let field) = member.part else { continue }
            let key = Key(member.key)
            switch field.kind {
            case .title: content.title = try members.decode(String.self, forKey: key)
            case .servings: content.servings = try members.decodeIfPresent(Int.self, forKey: key)
            case .text:
                content[text: field] = try members.decodeIfPresent(String.self, forKey: key)
            case .ingredients:
                var items = try members.nestedUnkeyedContainer(forKey: key)
                while !items.isAtEnd {
                    content.ingredients.append(try ingredient(items.nestedContainer(keyedBy: Key.self), format))
                }
            case .instructions:
                var items = try members.nestedUnkeyedContainer(forKey: key)
                while !items.isAtEnd {
                    let order = content.instructions.count + 1
                    content.instructions.append(try step(items.nestedContainer(keyedBy: Key.self), format, place: order))
                }
            case .tags:
                var items = try members.nestedUnkeyedContainer(forKey: key)
                while !items.isAtEnd {
                    let item = try items.nestedContainer(keyedBy: Key.self)
                    var tag = Tag(name: "", payload: nil)
                    for member in format.tagMembers {
                        switch member.part {
                        case .name: tag.name = try item.decode(String.self, forKey: Key(member.key))
                        case .payload: tag.payload = try item.decodeIfPresent(String.self, forKey: Key(member.key))
                        }
                    }
                    content.tags.append(tag)
                }
            case .nutrition:
                content.nutrition = try members.decodeIfPresent(StoredNutrition.self, forKey: key)?.nutrition
            }
        }
        return content
    }

    private static func ingredient(_ item: KeyedDecodingContainer<Key>, _ format: ContentFormat) throws -> Ingredient {
        var line = Ingredient(id: "", name: "")
        var unitRead = false
        for member in format.ingredientMembers {
            let key = Key(member.key)
            switch member.part {
            case .id: line.id = try item.decode(String.self, forKey: key)
            case .name: line.name = try item.decode(String.self, forKey: key)
            case .amount: line.amount = try item.decodeIfPresent(Double.self, forKey: key)
            case .amountMax: line.amountMax = try item.decodeIfPresent(Double.self, forKey: key)
            case .unit:
                // A format writing the unit under two keys writes it the same under both.
                if !unitRead { line.unit = try item.decodeIfPresent(String.self, forKey: key) }
                unitRead = true
            case .note: line.note = try item.decodeIfPresent(String.self, forKey: key)
            case .section: line.section = try item.decodeIfPresent(String.self, forKey: key)
            case .text: line.text = try item.decodeIfPresent(String.self, forKey: key)
            case .display: break
            }
        }
        return line
    }

    /// A step; without an `order` member in the format, its order is its place.
    private static func step(_ item: KeyedDecodingContainer<Key>, _ format: ContentFormat, place: Int) throws -> Instruction {
        var step = Instruction(id: "", description: "", order: place)
        for member in format.stepMembers {
            let key = Key(member.key)
            switch member.part {
            case .id: step.id = try item.decode(String.self, forKey: key)
            case .order: step.order = try item.decode(Int.self, forKey: key)
            case .description: step.description = try item.decode(String.self, forKey: key)
            case .section: step.section = try item.decodeIfPresent(String.self, forKey: key)
            }
        }
        return step
    }

    /// A member's key, from the format's `StaticString`s.
    struct Key: CodingKey {
        let stringValue: String
        init(_ key: StaticString) { stringValue = key.description }
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The stored nutrition (`Nutrition.write(to:)`): the nutrients by name, each a number,
    /// and `servingSize`; a member of another name is refused, as is an object that states nothing.
    private struct StoredNutrition: Decodable {
        let nutrition: Nutrition

        init(from decoder: any Decoder) throws {
            let members = try decoder.container(keyedBy: Key.self)
            var nutrition = Nutrition()
            for key in members.allKeys {
                if key.stringValue == "servingSize" {
                    nutrition.servingSize = try members.decode(String.self, forKey: key)
                } else if let nutrient = Nutrition.Nutrient(rawValue: key.stringValue) {
                    nutrition.amounts[nutrient] = try members.decode(Double.self, forKey: key)
                } else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: members, debugDescription: "not a nutrient")
                }
            }
            guard !nutrition.isEmpty else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no nutrient and no serving size"))
            }
            self.nutrition = nutrition
        }
    }
}
