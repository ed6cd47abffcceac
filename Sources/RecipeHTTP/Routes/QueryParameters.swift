import RecipeDomain

// The query parameters routes read, each checked as the OpenAPI document states it:
// a value out of its form is 400 `badParameter` naming the parameter.
extension HTTPRequest {
    /// A path parameter of the matched route (`{id}`); the router always sets those of its pattern.
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The recipe of a `/v1/recipes/{id}…` path, or 400 `badParameter` naming `id` when the
    /// segment (percent-decoded) is not a recipe id: no NUL, control character or non-ASCII
    /// letter ever reaches a recipe through its URL, whatever the route.
    func recipeID() throws -> RecipeID {
        do {
            return try RecipeID(parameter("id"))
        } catch {
            throw HTTPError.badParameter("id", error.message)
        }
    }

    /// An optional parameter; empty means absent, as a form with an empty field sends it.
    func text(_ name: String) -> String? {
        query[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = query[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError.badParameter(name, "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound); got \"\(text)\"")
        }
        return value
    }

    /// `?units=metric|us`: the system to show amounts in; nil when absent or empty.
    func unitSystem(_ name: String) throws -> UnitSystem? {
        guard let text = text(name) else { return nil }
        guard let system = UnitSystem(rawValue: text) else {
            let known = UnitSystem.allCases.map(\.rawValue).joined(separator: " or ")
            throw HTTPError.badParameter(name, "\(name) must be \(known); got \"\(text)\"")
        }
        return system
    }

    /// `?wait` alone means true.
    func bool(_ name: String) throws -> Bool {
        switch query[name] {
        case nil, "false", "0": return false
        case "", "true", "1": return true
        case let text?: throw HTTPError.badParameter(name, "\(name) must be true or false; got \"\(text)\"")
        }
    }

    /// `after=p:o[,p:o…]` as the offset to have applied in each partition (the largest
    /// when one is named twice); nil when absent or empty.
    func positions(_ name: String) throws -> [Int32: Int64]? {
        guard let text = text(name) else { return nil }
        var positions: [Int32: Int64] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            // Digits only, as many as always fit (Int32, Int64): exactly the form the OpenAPI
            // document states; Swift's `Int32("+5")` alone would also take a sign.
            guard parts.count == 2, let partition = Self.digits(parts[0], atMost: 9),
                  let offset = Self.digits(parts[1], atMost: 18) else {
                throw HTTPError.badParameter(name, "\(name) must be partition:offset[,partition:offset…], e.g. 3:120; got \"\(text)\"")
            }
            positions[Int32(partition)] = max(positions[Int32(partition)] ?? 0, offset)
        }
        return positions
    }

    private static func digits(_ text: Substring, atMost count: Int) -> Int64? {
        guard (1...count).contains(text.utf8.count), text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int64(text)
    }
}
