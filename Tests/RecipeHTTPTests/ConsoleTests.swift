import Foundation
import RecipeHTTP
import Testing

/// The web console is served from the binary: its page at `/`, its files under `/console/`,
/// each with its media type and the headers that keep the page to its own origin. What the
/// page does in a browser is scripts/console-test's business (make test).
@Suite("Console")
struct ConsoleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/RecipeHTTP/Console").standardizedFileURL

    static func file(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func theRootServesTheConsolePageAsHTML() throws {
        let api = RecipeAPIHandler(readModel: FakeReads(), appender: FakeLog())
        let page = api.answer(HTTPRequest(method: "GET", uri: "/"))
        #expect(page.status == 200)
        #expect(page.header("content-type") == "text/html; charset=utf-8")
        #expect(page.body == (try Self.file("index.html")))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains(#"<script src="console/console.js" defer></script>"#))
        #expect(html.contains(#"<link rel="stylesheet" href="console/console.css">"#))
        // Only its own files and its own origin: no CDN, no inline script, no frames.
        let policy = try #require(page.header("content-security-policy"))
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && policy.contains("connect-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(page.header("x-content-type-options") == "nosniff")
        #expect(!html.contains("http://") && !html.contains("https://"))
        // HEAD answers as GET does.
        #expect(api.answer(HTTPRequest(method: "HEAD", uri: "/")).status == 200)
    }

    @Test func servesEveryFileOfTheConsoleFolderWithItsMediaType() throws {
        let api = RecipeAPIHandler(readModel: FakeReads(), appender: FakeLog())
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0 != "index.html" }.sorted()
        #expect(files == ["console.css", "console.js", "live.js", "nutrition.js"])
        let types = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8"]
        for file in files {
            let response = api.answer(HTTPRequest(method: "GET", uri: "/console/\(file)"))
            #expect(response.status == 200, "\(file)")
            #expect(response.header("content-type") == types[String(file.split(separator: ".").last!)], "\(file)")
            #expect(response.body == (try Self.file(file)), "\(file)")
            #expect(response.header("x-content-type-options") == "nosniff", "\(file)")
        }
        let missing = api.answer(HTTPRequest(method: "GET", uri: "/console/index.html"))
        #expect(missing.status == 404)
        #expect(try missing.error() == ["code": "notFound", "message": "no console file index.html"])
        let posted = api.answer(HTTPRequest(method: "POST", uri: "/"))
        #expect(posted.status == 405)
        #expect(posted.header("allow") == "GET")
    }

    @Test func theConsoleStaysOpenWhenReadsNeedATokenAndTheDataDoesNot() throws {
        let options = RecipeAPIOptions(tokens: try AccessTokens(parsing: "alice-secret alice\n"), privateReads: true)
        let api = RecipeAPIHandler(readModel: FakeReads(), appender: FakeLog(), options: options)
        // The page holds no data: the browser must load it to be given a token at all.
        #expect(api.answer(HTTPRequest(method: "GET", uri: "/")).status == 200)
        #expect(api.answer(HTTPRequest(method: "GET", uri: "/console/console.js")).status == 200)
        #expect(api.answer(HTTPRequest(method: "GET", uri: "/v1/recipes")).status == 401)
    }

    /// The commands the editor sends are the contract's, in their current shapes: every command name
    /// in the scripts has a schema in Schemas/commands, and ingredients go as v2 (`unit`, not v1's `metric`).
    @Test func theScriptSendsTheContractsCommandsInTheirCurrentShapes() throws {
        let script = try ["console.js", "nutrition.js"].map { String(decoding: try Self.file($0), as: UTF8.self) }.joined(separator: "\n")
        let pattern = try Regex(#"'([A-Z][A-Za-z]+(?:Started|Changed|Added|Updated|Removed|Moved|Set|Saved|Discarded|Deleted))'"#)
        let sent = Set(script.matches(of: pattern).map { String($0.output[1].substring ?? "") })
        let schemas = Self.folder.appendingPathComponent("../../../Schemas/commands").standardizedFileURL
        let named = Set(try FileManager.default.contentsOfDirectory(atPath: schemas.path).compactMap { $0.split(separator: ".").first.map(String.init) })
        #expect(sent.isSubset(of: named), "no schema for \(sent.subtracting(named).sorted())")
        // Every content field of version 2 has its control.
        for command in ["DescriptionChanged", "YieldChanged", "TimesChanged", "SourceChanged", "DraftContentSet", "IngredientAdded",
                        "IngredientUpdated", "InstructionAdded", "InstructionUpdated", "NutritionChanged"] {
            #expect(sent.contains(command), "the editor never sends \(command)")
        }
        #expect(!script.contains("metric:"), "an ingredient body in v1's shape (metric)")
        #expect(script.contains("'v1/parse/ingredients'") && script.contains("'v1/import'"))
    }

    @Test func thePageLinksEveryPageOfTheConsole() throws {
        let html = String(decoding: try Self.file("index.html"), as: UTF8.self)
        for page in ["#/", "#/drafts", "#/new", "#/import", "#/rejections", "#/operations"] {
            #expect(html.contains(#"href="\#(page)""#), "no link to \(page)")
        }
    }

    @Test func theScriptKeepsTheTokenForTheTabOnlyAndOutOfURLs() throws {
        // live.js follows the event streams with the same header.
        let script = try ["console.js", "live.js"].map { String(decoding: try Self.file($0), as: UTF8.self) }.joined(separator: "\n")
        let lines = script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("//") }
        // For the tab only: kept in sessionStorage, never in localStorage or a cookie.
        #expect(script.contains("sessionStorage.getItem(TOKEN_KEY)"))
        #expect(!script.contains("localStorage") && !script.contains("document.cookie"))
        // Out of URLs: the token is read in one place, and every use of it is the Authorization
        // header or the page saying whether one is set; no query parameter names it.
        let reads = lines.filter { $0.contains("getItem(TOKEN_KEY)") }
        #expect(reads == ["return sessionStorage.getItem(TOKEN_KEY) || '';"], "\(reads)")
        let uses = lines.filter { $0.contains("token()") && !$0.hasPrefix("function token()") }
        #expect(!uses.isEmpty)
        for use in uses {
            #expect(use.hasPrefix("if (token()) headers.Authorization = 'Bearer ' + token();")
                    || use.hasPrefix("document.getElementById('token-state').textContent = token()"), "the token used elsewhere: \(use)")
        }
        #expect(!script.contains("token=") && !script.contains("access_token"), "a query parameter for the token")
    }
}
