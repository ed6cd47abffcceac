import Foundation
import RecipeDomain

/// Bearer tokens, the actor each one acts as and its role, from a file of lines
/// `sha256:<hex of the token's SHA-256> actor role` (`#` starts a comment, blank
/// lines are skipped). Roles: `admin` (may act on any recipe), `writer` (its own
/// and those shared with it), `reader` (may not write). `recipes tokens add`
/// makes a token and appends its line; the file never holds a token itself.
///
/// ```
/// # sha256:<hex>                                                          actor  role
/// sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 alice  writer
/// ```
///
/// The older form `token actor` is still read (a writer, the token hashed on
/// load), with a warning in `warnings`. A token is checked by hashing it and
/// comparing with every line's hash in constant time, so neither a match's
/// place nor its prefix shows in how long the check takes.
public struct AccessTokens: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// SHA-256 of the token.
        public var hash: [UInt8]
        public var actor: String
        public var role: ActorRole
    }

    public private(set) var entries: [Entry]
    /// What the file holds that still works but should change (plain tokens).
    public private(set) var warnings: [String] = []

    /// Tokens given in the clear (tests, `recipes dev --token`): hashed here.
    public init(tokens: [(token: String, actor: String, role: ActorRole)]) {
        entries = tokens.map { Entry(hash: TokenHash.sha256(Array($0.token.utf8)), actor: $0.actor, role: $0.role) }
    }

    /// Reads a tokens file, opened once and checked as opened (`TokensFile`): one that anyone
    /// but this user (or root) could have written or could read is refused, as ssh refuses such a key.
    public init(contentsOf path: String) throws {
        let file = try TokensFile(opening: path)
        try self.init(parsing: try file.text(), source: path)
    }

    public init(parsing text: String, source: String = "tokens") throws {
        var entries: [Entry] = []
        var plainLines: [Int] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            let place = "\(source):\(index + 1)"
            let entry: Entry
            if words[0].hasPrefix("sha256:") {
                guard words.count == 3 else {
                    throw AccessTokensError(message: "\(place): expected `sha256:<hex> actor role`, got \(words.count) words")
                }
                guard let hash = Self.bytes(hex: String(words[0].dropFirst("sha256:".count))), hash.count == 32 else {
                    throw AccessTokensError(message: "\(place): the hash must be 64 hex digits after sha256:")
                }
                guard let role = ActorRole(rawValue: words[2]) else {
                    throw AccessTokensError(message: "\(place): the role must be admin, writer or reader, not \(words[2])")
                }
                entry = Entry(hash: hash, actor: words[1], role: role)
            } else {
                guard words.count == 2 else {
                    throw AccessTokensError(message: "\(place): expected `sha256:<hex> actor role`, got \(words.count) words")
                }
                plainLines.append(index + 1)
                entry = Entry(hash: TokenHash.sha256(Array(words[0].utf8)), actor: words[1], role: .writer)
            }
            // One spelling per actor, as every record and grant must name it (`ActorName`): two
            // spellings of one name would be two actors here and one to the fold.
            if let problem = ActorName.problem(entry.actor) {
                throw AccessTokensError(message: "\(place): \(problem)")
            }
            guard !entries.contains(where: { $0.hash == entry.hash }) else {
                throw AccessTokensError(message: "\(place): the token is given twice")
            }
            entries.append(entry)
        }
        guard !entries.isEmpty else { throw AccessTokensError(message: "\(source): no tokens") }
        self.entries = entries
        if !plainLines.isEmpty {
            let lines = plainLines.map(String.init).joined(separator: ", ")
            warnings = ["\(source): line(s) \(lines) hold a token in plain text (read as a writer); "
                        + "replace them with `recipes tokens add ACTOR --role ROLE --file \(source)`"]
        }
    }

    /// The entry of an `Authorization: Bearer <token>` header value, or nil.
    public func entry(authorization: String?) -> Entry? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let hash = TokenHash.sha256(Array(parts[1].trimmingCharacters(in: .whitespaces).utf8))
        // Every entry is compared in full: no early exit on a match or a differing byte.
        var found: Entry?
        for entry in entries where TokenHash.equal(entry.hash, hash) { found = entry }
        return found
    }

    /// The actor of an `Authorization` header value, or nil.
    public func actor(authorization: String?) -> String? { entry(authorization: authorization)?.actor }

    /// The line `recipes tokens add` appends for `token`.
    public static func line(token: String, actor: String, role: ActorRole) -> String {
        "sha256:\(TokenHash.sha256Hex(Array(token.utf8))) \(actor) \(role.rawValue)"
    }

    /// A new token: 32 random bytes from the system's secure generator, as hex.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}

public struct AccessTokensError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
