import Foundation
import RecipeDomain
import RecipeHTTP
import RecipeTestSupport
import Testing

@Suite("Tokens file")
struct TokensFileTests {
    static func file(_ text: String, mode: mode_t) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    @Test func hashedLinesWithRolesAndPlainLinesWithAWarning() throws {
        let text = AccessTokens.line(token: "s3cret", actor: "root", role: .admin) + "\nplain-token carol\n"
        let tokens = try AccessTokens(parsing: text, source: "t")
        #expect(!text.contains("s3cret"))
        #expect(tokens.entry(authorization: "Bearer s3cret")?.role == .admin)
        #expect(tokens.entry(authorization: "Bearer plain-token")?.actor == "carol")
        #expect(tokens.entry(authorization: "Bearer plain-token")?.role == .writer)
        #expect(tokens.entry(authorization: "Bearer s3cre") == nil)
        #expect(tokens.warnings.count == 1 && tokens.warnings[0].contains("line(s) 2"))
        #expect(throws: AccessTokensError.self) { try AccessTokens(parsing: "sha256:abcd root admin\n") }
        #expect(throws: AccessTokensError.self) {
            try AccessTokens(parsing: AccessTokens.line(token: "x", actor: "a", role: .admin).replacingOccurrences(of: "admin", with: "owner"))
        }
    }

    @Test func aFileOthersMayReadIsRefusedAsSshRefusesAKey() async throws {
        let line = AccessTokens.line(token: "s3cret", actor: "root", role: .admin) + "\n"
        let open = try Self.file(line, mode: 0o644)
        defer { unlink(open) }
        #expect(throws: AccessTokensError.self) { try AccessTokens(contentsOf: open) }
        let dev = try await runRecipes(["dev", "--tokens", open, "--port", "0", "--data", open + ".data"])
        #expect(dev.status == 2)
        #expect(dev.err.contains("chmod 600 \(open)"), "\(dev.err)")
        #expect(dev.err.split(separator: "\n").count == 1, "\(dev.err)")
        let closed = try Self.file(line, mode: 0o600)
        defer { unlink(closed) }
        #expect(try AccessTokens(contentsOf: closed).entry(authorization: "Bearer s3cret")?.actor == "root")
    }

    @Test func tokensAddPrintsTheTokenOnceAndKeepsItsHash() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        defer { unlink(path) }
        let added = try await runRecipes(["tokens", "add", "alice", "--role", "admin", "--file", path])
        #expect(added.status == 0, "\(added.err)")
        let token = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains(token))
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        let second = try await runRecipes(["tokens", "add", "bob", "--file", path])
        #expect(second.status == 0)
        let tokens = try AccessTokens(contentsOf: path)
        #expect(tokens.entry(authorization: "Bearer \(token)")?.actor == "alice")
        #expect(tokens.entry(authorization: "Bearer \(token)")?.role == .admin)
        #expect(tokens.entry(authorization: "Bearer \(second.out.trimmingCharacters(in: .whitespacesAndNewlines))")?.role == .writer)
        let bad = try await runRecipes(["tokens", "add", "carol", "--role", "owner", "--file", path])
        #expect(bad.status == 2 && bad.err.contains("--role"))
    }
}
