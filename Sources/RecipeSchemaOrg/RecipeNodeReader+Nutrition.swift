import RecipeDomain
import RecipeJSON

// MARK: - Nutrition

extension RecipeNodeReader {
    /// `nutrition`: a `NutritionInformation` node (or the first node of a list, or the node an
    /// `@id` names). Each amount is read as `NutritionValues` reads it; one that states no
    /// amount ("N/A", "") or one past its nutrient's bounds is left out with an omission.
    /// `servingSize` is text, cut to `RecipeLimits.maxServingSizeLength`. Nil when nothing is left.
    mutating func nutrition(of node: NodeIndex.Node, at path: JSONPath) throws(SchemaOrgImportError) -> Nutrition? {
        guard let (member, value) = node.member("nutrition"), value != .null else { return nil }
        var place = path.key(member)
        var found = value
        if case .array(let items) = value, let index = items.firstIndex(where: { if case .object = $0 { true } else { false } }) {
            found = items[index]
            place = place.index(index)
        }
        guard case .object(let members) = found else {
            omit(value, at: place, because: "nutrition is a NutritionInformation node")
            return nil
        }
        try visit(place)
        let information = nodes.resolved(members)
        var nutrition = Nutrition()
        for (nutrient, property) in NutritionValues.properties {
            guard let (name, stated) = information.member(property), stated != .null else { continue }
            try visit(place)
            if let amount = amount(stated, of: nutrient, at: place.key(name)) { nutrition.amounts[nutrient] = amount }
        }
        if let (name, stated) = information.member("servingSize") {
            nutrition.servingSize = servingSize(stated, at: place.key(name))
        }
        return nutrition.isEmpty ? nil : nutrition
    }

    private mutating func amount(_ value: JSONValue, of nutrient: Nutrition.Nutrient, at place: JSONPath) -> Double? {
        let amount: Double?
        switch value {
        case .integer(let number): amount = Double(number)
        case .number(let number): amount = number
        case .string(let text): amount = NutritionValues.amount(TextCleaning.line(text), of: nutrient)
        default: amount = nil
        }
        guard let amount else {
            let units = nutrient == .calories ? "kcal or kJ" : "g or mg"
            omit(value, at: place, because: "not an amount of \(nutrient.rawValue): a number, with or without a unit (\(units))")
            return nil
        }
        guard amount >= 0, amount <= nutrient.maximum else {
            omit(value, at: place, because: "\(nutrient.rawValue) is from 0 to \(Int(nutrient.maximum)) \(nutrient.unit) per serving")
            return nil
        }
        return amount
    }

    private mutating func servingSize(_ value: JSONValue, at place: JSONPath) -> String? {
        let text: String
        switch value {
        case .string(let written): text = TextCleaning.line(written)
        case .integer(let number): text = String(number)
        case .null: return nil
        default:
            omit(value, at: place, because: "a serving size is text")
            return nil
        }
        guard TextCleaning.saysSomething(text) else { return nil }
        return fitted(text, at: place, what: "a serving size", limit: RecipeLimits.maxServingSizeLength) {
            FieldRules.optionalText($0, "Serving size", limit: RecipeLimits.maxServingSizeLength)
        }
    }
}
