import Foundation

/// Bearer tokens and the actor each one writes as, from a file of
/// `token actor` lines (`#` starts a comment, blank lines are skipped).
///
/// ```
/// # token                              actor
/// 3f9a1c0e5b7d4e21a8c6f0b2d4e6a8c0     alice
/// ```
public struct AccessTokens: Sendable, Equatable {
    public private(set) var actors: [String: String]

    public init(actors: [String: String]) {
        self.actors = actors
    }

    public init(contentsOf path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw AccessTokensError(message: "cannot read the tokens file \(path)")
        }
        try self.init(parsing: text, source: path)
    }

    public init(parsing text: String, source: String = "tokens") throws {
        var actors: [String: String] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.isEmpty { continue }
            guard words.count == 2 else {
                throw AccessTokensError(message: "\(source):\(index + 1): expected `token actor`, got \(words.count) words")
            }
            guard actors[String(words[0])] == nil else {
                throw AccessTokensError(message: "\(source):\(index + 1): the token is given twice")
            }
            actors[String(words[0])] = String(words[1])
        }
        guard !actors.isEmpty else { throw AccessTokensError(message: "\(source): no tokens") }
        self.actors = actors
    }

    /// The actor of an `Authorization: Bearer <token>` header value, or nil.
    public func actor(authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return actors[parts[1].trimmingCharacters(in: .whitespaces)]
    }
}

public struct AccessTokensError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
