import Dispatch
import Foundation
import RecipeProjection
import Synchronization

// The query parameters every route reads, and the read-your-writes wait.
extension RecipeAPI {
    // MARK: - Read your writes

    /// Waits until the store has applied every position of `after=p:o[,p:o…]`, or 503 `stale`.
    func waitForPositions(_ request: HTTPRequest) throws {
        guard let text = request.query["after"], !text.isEmpty else { return }
        let positions = try Self.positions(text)
        let deadline = ContinuousClock.now + options.waitTimeout
        while try !readModel.hasReached(positions) {
            if ContinuousClock.now >= deadline {
                throw HTTPError.stale("the read model has not reached \(text) within \(options.waitTimeout); try again")
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    static func positions(_ text: String) throws -> [Int32: Int64] {
        var positions: [Int32: Int64] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            // Digits only, as many as always fit (Int32, Int64): exactly the form the OpenAPI
            // document states; Swift's `Int32("+5")` alone would also take a sign.
            guard parts.count == 2, let partition = digits(parts[0], atMost: 9),
                  let offset = digits(parts[1], atMost: 18) else {
                throw HTTPError.badParameter("after", "after must be partition:offset[,partition:offset…], e.g. 3:120; got \"\(text)\"")
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

    // MARK: - Parameters

    static func int(_ request: HTTPRequest, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.query[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError.badParameter(name, "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound); got \"\(text)\"")
        }
        return value
    }

    static func bool(_ request: HTTPRequest, _ name: String) throws -> Bool {
        switch request.query[name] {
        case nil, "false", "0": return false
        case "", "true", "1": return true
        case let text?: throw HTTPError.badParameter(name, "\(name) must be true or false; got \"\(text)\"")
        }
    }
}

/// Runs async work from a connection thread (never a Swift concurrency thread) and waits for it.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}
