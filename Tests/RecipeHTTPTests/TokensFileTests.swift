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

    @Test func aFileOthersMayReadIsRefusedAsSshRefusesAKey() throws {
        let line = AccessTokens.line(token: "s3cret", actor: "root", role: .admin) + "\n"
        let open = try Self.file(line, mode: 0o644)
        defer { unlink(open) }
        #expect(throws: AccessTokensError.self) { try AccessTokens(contentsOf: open) }
        let dev = try runRecipes(["dev", "--tokens", open, "--port", "0", "--data", open + ".data"])
        #expect(dev.status == 2)
        #expect(dev.err.contains("chmod 600 \(open)"), "\(dev.err)")
        #expect(dev.err.split(separator: "\n").count == 1, "\(dev.err)")
        let closed = try Self.file(line, mode: 0o600)
        defer { unlink(closed) }
        #expect(try AccessTokens(contentsOf: closed).entry(authorization: "Bearer s3cret")?.actor == "root")
    }

    /// A folder of its own in the temporary folder (mode 700), holding a tokens file (mode 600).
    static func folderWithTokens() throws -> (folder: String, file: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o700)
        let file = folder + "/tokens"
        try (AccessTokens.line(token: "s3cret", actor: "root", role: .admin) + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o600)
        return (folder, file)
    }

    /// The message of the refusal of the tokens file at `path`, nil when it is accepted.
    static func refusal(_ path: String) -> String? {
        do {
            _ = try AccessTokens(contentsOf: path)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Another user than the one running (root here), for files and folders given to them.
    static let stranger: uid_t = 12345

    @Test func aFileAnotherUserOwnsIsRefused() throws {
        let (folder, file) = try Self.folderWithTokens()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(Self.refusal(file) == nil)
        try #require(chown(file, Self.stranger, getegid()) == 0, "giving a file to another user needs root")
        let refusal = try #require(Self.refusal(file))
        #expect(refusal.contains("owned by uid \(Self.stranger)") && refusal.contains("chown \(geteuid()) \(file)"), "\(refusal)")
    }

    @Test func aFolderOthersMayWriteIsRefusedUnlessSticky() throws {
        let (folder, file) = try Self.folderWithTokens()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for mode: mode_t in [0o777, 0o770, 0o757] {
            chmod(folder, mode)
            let refusal = try #require(Self.refusal(file), "mode \(String(mode, radix: 8))")
            #expect(refusal.contains("the folder \(folder)") && refusal.contains("chmod go-w \(folder)"), "\(refusal)")
        }
        // Sticky (as /tmp and Kubernetes' secret volumes are): nobody may replace another's file in it.
        chmod(folder, 0o1777)
        #expect(Self.refusal(file) == nil)
    }

    @Test func aFolderAnotherUserOwnsIsRefused() throws {
        let (folder, file) = try Self.folderWithTokens()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inner = folder + "/inner"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: false)
        chmod(inner, 0o755)
        try FileManager.default.moveItem(atPath: file, toPath: inner + "/tokens")
        #expect(Self.refusal(inner + "/tokens") == nil)
        // Its owner may rename the file away and put another in its place, whatever the modes.
        try #require(chown(inner, Self.stranger, getegid()) == 0, "giving a folder to another user needs root")
        let refusal = try #require(Self.refusal(inner + "/tokens"))
        #expect(refusal.contains("the folder \(inner)") && refusal.contains("owned by uid \(Self.stranger)"), "\(refusal)")
    }

    @Test func aLinkIsJudgedByTheFileItLeadsTo() throws {
        let (safe, _) = try Self.folderWithTokens()
        let (open, file) = try Self.folderWithTokens()
        defer { for folder in [safe, open] { try? FileManager.default.removeItem(atPath: folder) } }
        chmod(open, 0o777)
        let link = safe + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let refusal = try #require(Self.refusal(link))
        #expect(refusal.contains("the folder \(open)"), "\(refusal)")
    }

    @Test func aFileThatIsNoRegularFileIsRefusedWithoutReadingIt() throws {
        let (folder, _) = try Self.folderWithTokens()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A pipe would block the reader until someone writes to it.
        let pipe = folder + "/pipe"
        try #require(mkfifo(pipe, 0o600) == 0)
        #expect(Self.refusal(pipe)?.contains("not a regular file") == true)
        #expect(Self.refusal(folder)?.contains("not a regular file") == true)
    }

    @Test func tokensAddPrintsTheTokenOnceAndKeepsItsHash() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        defer { unlink(path) }
        let added = try runRecipes(["tokens", "add", "alice", "--role", "admin", "--file", path])
        #expect(added.status == 0, "\(added.err)")
        let token = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains(token))
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        let second = try runRecipes(["tokens", "add", "bob", "--file", path])
        #expect(second.status == 0)
        let tokens = try AccessTokens(contentsOf: path)
        #expect(tokens.entry(authorization: "Bearer \(token)")?.actor == "alice")
        #expect(tokens.entry(authorization: "Bearer \(token)")?.role == .admin)
        #expect(tokens.entry(authorization: "Bearer \(second.out.trimmingCharacters(in: .whitespacesAndNewlines))")?.role == .writer)
        let bad = try runRecipes(["tokens", "add", "carol", "--role", "owner", "--file", path])
        #expect(bad.status == 2 && bad.err.contains("--role"))
    }

    /// The file read is the one checked: a link swapped after the check to a file others wrote
    /// changes nothing for the open file, which was checked as opened and is read as opened.
    @Test func theFileReadIsTheFileChecked() throws {
        let (safe, file) = try Self.folderWithTokens()
        defer { try? FileManager.default.removeItem(atPath: safe) }
        let shared = safe + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        let link = shared + "/tokens"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let forged = safe + "/forged"
        try (AccessTokens.line(token: "mallory", actor: "mallory", role: .admin) + "\n").write(toFile: forged, atomically: false, encoding: .utf8)
        chmod(forged, 0o666)
        let opened = try TokensFile(opening: link)
        // The swap a writer of the folder could make between the check and the read.
        unlink(link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: forged)
        let tokens = try AccessTokens(parsing: try opened.text(), source: link)
        #expect(tokens.entry(authorization: "Bearer s3cret")?.actor == "root")
        #expect(tokens.entry(authorization: "Bearer mallory") == nil)
        #expect(Self.refusal(link)?.contains("chmod 600") == true)
    }

    /// The hashes the tokens file holds are SHA-256 (FIPS 180-4's examples), so files written
    /// by earlier builds, or by hand with `sha256sum`, keep working.
    @Test func tokenHashesAreSHA256() {
        func hash(_ token: String) -> Substring {
            AccessTokens.line(token: token, actor: "a", role: .reader).dropFirst("sha256:".count).prefix(64)
        }
        #expect(hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hash(String(repeating: "a", count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
