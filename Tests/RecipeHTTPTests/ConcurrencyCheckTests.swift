import Foundation
import RecipeTestSupport
import Testing

/// The repository's root, for scripts/ and the sources the check reads.
private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Runs scripts/check-concurrency (with Debian's python3) on `root`.
private func checkConcurrency(root: URL = repository) throws -> ProcessRun {
    try runProcess("/usr/bin/python3", [repository.appendingPathComponent("scripts/check-concurrency").path, "--root", root.path])
}

/// The code blocks, on threads of its own, and uses no Swift concurrency: scripts/check-concurrency
/// says so (`make test` runs it first), and refuses what would bring a blocking call onto the pool.
@Suite("Concurrency check")
struct ConcurrencyCheckTests {
    @Test func theSourcesAndTestsUseNoSwiftConcurrency() throws {
        let result = try checkConcurrency()
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "ok: concurrency\n")
    }

    /// What the code had before it blocked end to end, put back into a copy: the async twin of
    /// an append, a task joined by a semaphore (`blocking {}`), a test's `async let` over a
    /// blocking call. Each is refused, naming its file and line.
    @Test func theCheckRefusesAsyncCodePutBack() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("concurrency-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for folder in ["Sources", "Tests"] {
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: repository.appendingPathComponent(folder), to: copy.appendingPathComponent(folder))
        }
        func append(_ file: String, _ code: String) throws -> Int {
            let url = copy.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            try (text + code).write(to: url, atomically: true, encoding: .utf8)
            return text.split(separator: "\n", omittingEmptySubsequences: false).count
        }
        let appender = try append("Sources/RecipeWriteSide/CommandAppender.swift", """

            extension CommandAppender {
                public func appendLater(_ envelope: CommandEnvelope) async throws -> KafkaDeliveryReport {
                    try append(envelope, source: "x")
                }
            }
            """)
        let routes = try append("Sources/RecipeHTTP/Routes/CommandRoutes.swift", """

            func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
                let done = DispatchSemaphore(value: 0)
                Task { _ = try? await body(); done.signal() }
                done.wait()
                fatalError()
            }
            """)
        let test = try append("Tests/RecipeHTTPTests/InProcessRouteTests.swift", """

            func answerLater(_ api: RecipeAPIHandler<FakeReads, FakeLog>) async {
                async let answer = api.answer(HTTPRequest(method: "GET", uri: "/v1/drafts?after=0:5"))
                _ = await answer
            }
            """)
        // Not Swift concurrency: the words in a comment or a string, a dispatch queue's `async`, an actor of a command.
        _ = try append("Sources/RecipeWriteSide/CommandSender.swift", """

            // async and await, Task { } in a comment
            let words = "async let x = await y; Task { }"
            func later(_ queue: DispatchQueue, actor: String) { queue.async { print(actor) } }
            """)

        let result = try checkConcurrency(root: copy)
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n").map(String.init)
        for expected in ["Sources/RecipeWriteSide/CommandAppender.swift:\(appender + 2): `async`",
                         "Sources/RecipeHTTP/Routes/CommandRoutes.swift:\(routes + 1): `async`",
                         "Sources/RecipeHTTP/Routes/CommandRoutes.swift:\(routes + 3): a Swift task",
                         "Sources/RecipeHTTP/Routes/CommandRoutes.swift:\(routes + 3): `await`",
                         "Tests/RecipeHTTPTests/InProcessRouteTests.swift:\(test + 1): `async`",
                         "Tests/RecipeHTTPTests/InProcessRouteTests.swift:\(test + 2): `async`",
                         "Tests/RecipeHTTPTests/InProcessRouteTests.swift:\(test + 3): `await`"] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "missing \"\(expected)\" in: \(result.err)")
        }
        #expect(!result.err.contains("CommandSender.swift"), "\(result.err)")
        #expect(lines.last?.hasPrefix("check-concurrency: 7 uses of Swift concurrency") == true, "\(result.err)")
    }
}
