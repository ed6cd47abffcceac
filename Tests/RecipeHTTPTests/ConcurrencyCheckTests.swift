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
        let copy = try SourcesCopy()
        defer { copy.remove() }
        let append = copy.append
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

        let result = try checkConcurrency(root: copy.root)
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
        #expect(lines.last?.hasPrefix("check-concurrency: 7 uses of Swift concurrency, 1 locks") == true, "\(result.err)")
    }

    /// Locks, waits and threads of other kinds than Threads' `Locked`, `OwnedThread` and
    /// `Background`, put into a copy: each is refused, naming its file and line, outside
    /// Sources/Threads (and the folders listed as not on Threads yet) alone.
    @Test func theCheckRefusesOtherLocksAndThreadsOutsideThreads() throws {
        let copy = try SourcesCopy()
        defer { copy.remove() }
        let primitives = """

            final class Waiter: @unchecked Sendable {
                let lock = NSLock()
                let condition = NSCondition()
                let mutex = Mutex(0)
                let semaphore = DispatchSemaphore(value: 0)
                let group = DispatchGroup()
                func later() { DispatchQueue.global().async { print("later") } }
                func start() { Thread { print("unowned") }.start(); Thread.detachNewThread { print("detached") } }
            }
            """
        let source = try copy.append("Sources/RecipeHTTP/Server/AnswerMemory.swift", primitives)
        let test = try copy.append("Tests/RecipeProjectionTests/StoreFaultTests.swift", primitives)
        // Allowed: in Threads itself, in comments and strings; and `Atomic`, `Thread.sleep`.
        _ = try copy.append("Sources/Threads/Locked.swift", primitives)
        _ = try copy.append("Sources/RecipeWriteSide/CommandSender.swift", """

            // NSLock, DispatchSemaphore, Thread { } in a comment
            let named = "DispatchQueue.global() and Mutex(0)"
            let counter = Atomic<Int>(0)
            func pause() { Thread.sleep(forTimeInterval: 0.001) }
            """)

        let result = try checkConcurrency(root: copy.root)
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n").map(String.init)
        for (file, first) in [("Sources/RecipeHTTP/Server/AnswerMemory.swift", source), ("Tests/RecipeProjectionTests/StoreFaultTests.swift", test)] {
            for (offset, what) in [(2, "a lock other than"), (3, "a condition other than"), (4, "a `Mutex`"), (5, "a semaphore"),
                                   (6, "a dispatch group"), (7, "the global dispatch queue"), (8, "a thread without an owner")] {
                let expected = "\(file):\(first + offset): \(what)"
                #expect(lines.contains { $0.hasPrefix(expected) }, "missing \"\(expected)\" in: \(result.err)")
            }
        }
        #expect(lines.filter { $0.contains("a thread without an owner") }.count == 2, "\(result.err)")
        for allowed in ["Sources/Threads/", "CommandSender.swift"] {
            #expect(!result.err.contains(allowed), "\(result.err)")
        }
        #expect(lines.last?.hasPrefix("check-concurrency: 0 uses of Swift concurrency, 14 locks, waits or threads") == true, "\(result.err)")
    }
}

/// A copy of Sources/ and Tests/ to put code back into, removed by `remove`.
private struct SourcesCopy {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("concurrency-\(UUID().uuidString)")

    init() throws {
        for folder in ["Sources", "Tests"] {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: repository.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
    }

    /// Appends `code` to `file`; the number of lines before it.
    func append(_ file: String, _ code: String) throws -> Int {
        let url = root.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        try (text + code).write(to: url, atomically: true, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).count
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
