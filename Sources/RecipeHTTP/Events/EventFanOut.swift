import Foundation
import RecipeDomain
import RecipeProjection
import Threads

/// What event streams read of the read side (`ReadModel`).
public protocol RecipeEventReads: Sendable {
    func historyMark() throws -> Int64
    func decisions(afterChunk mark: Int64, maxChunks: Int) throws -> (decisions: [StreamedDecision], mark: Int64)
    func decisions(partition: Int32, after offset: Int64, limit: Int) throws -> [StreamedDecision]
    func streamStates(_ ids: [String]) throws -> [String: RecipeStreamState]
    func changeCount() throws -> Int64
    func waitForChange(after seen: Int64, deadline: ContinuousClock.Instant) throws -> Int64
}

extension ReadModel: RecipeEventReads {}

/// One fan-out per process: a thread, running while any stream is open, that wakes on each
/// commit of the projector, reads the decisions that commit folded (once, whoever follows
/// them), and hands them to the streams they concern; and pings every stream each
/// `pingInterval`. A stream never blocks it: each has a bounded queue (`EventSubscriber`).
final class EventFanOut: Sendable {
    let reads: any RecipeEventReads
    let pingInterval: Duration
    let metrics: Metrics
    private let state = Locked(State())

    private struct State {
        var byRecipe: [String: [ObjectIdentifier: EventSubscriber]] = [:]
        var lists: [ObjectIdentifier: EventSubscriber] = [:]
        var count = 0
        var running = false
    }

    init(reads: any RecipeEventReads, pingInterval: Duration, metrics: Metrics) {
        self.reads = reads
        self.pingInterval = pingInterval
        self.metrics = metrics
    }

    var subscriberCount: Int { state.withLock { $0.count } }

    /// Adds a stream, before it reads its history: every decision committed after this call
    /// reaches it (those also in its history it drops by position).
    func subscribe(_ subscriber: EventSubscriber) throws {
        // Where the thread starts is read before the stream reads its history.
        let start = try state.withLock { state -> (changes: Int64, mark: Int64)? in
            Self.insert(subscriber, into: &state)
            guard !state.running else { return nil }
            state.running = true
            do {
                return (try reads.changeCount(), try reads.historyMark())
            } catch {
                state.running = false
                Self.remove(subscriber, from: &state)
                throw error
            }
        }
        metrics.recordOpenStreams(subscriberCount)
        if let start {
            OwnedThread(name: "event-fanout").start { [self] in run(changes: start.changes, mark: start.mark) }
        }
    }

    func unsubscribe(_ subscriber: EventSubscriber) {
        state.withLock { Self.remove(subscriber, from: &$0) }
        metrics.recordOpenStreams(subscriberCount)
    }

    private static func insert(_ subscriber: EventSubscriber, into state: inout State) {
        let key = ObjectIdentifier(subscriber)
        switch subscriber.scope {
        case .recipe(let id):
            guard state.byRecipe[id.text, default: [:]].updateValue(subscriber, forKey: key) == nil else { return }
        case .list:
            guard state.lists.updateValue(subscriber, forKey: key) == nil else { return }
        }
        state.count += 1
    }

    private static func remove(_ subscriber: EventSubscriber, from state: inout State) {
        let key = ObjectIdentifier(subscriber)
        switch subscriber.scope {
        case .recipe(let id):
            guard state.byRecipe[id.text]?.removeValue(forKey: key) != nil else { return }
            if state.byRecipe[id.text]?.isEmpty == true { state.byRecipe[id.text] = nil }
        case .list:
            guard state.lists.removeValue(forKey: key) != nil else { return }
        }
        state.count -= 1
    }

    private func run(changes: Int64, mark: Int64) {
        var (seen, mark) = (changes, mark)
        var nextPing = ContinuousClock.now + pingInterval
        while true {
            let open = state.withLock { state in
                if state.count == 0 { state.running = false }
                return state.count > 0
            }
            guard open else { return }
            do {
                // Everything committed since the last read, in log order per partition: a commit
                // writes its recipes' chunks in the order it first touched them, not by offset,
                // so a page that ended inside a commit could hand a list stream offsets out of order.
                let page = try reads.decisions(afterChunk: mark, maxChunks: Int(Int32.max))
                mark = page.mark
                if !page.decisions.isEmpty {
                    try deliver(page.decisions.sorted { ($0.partition, $0.offset) < ($1.partition, $1.offset) })
                }
                if ContinuousClock.now >= nextPing {
                    for subscriber in everyone() { subscriber.ping() }
                    nextPing = ContinuousClock.now + pingInterval
                }
                seen = try reads.waitForChange(after: seen, deadline: nextPing)
            } catch {
                // The store failed to answer: the streams end (their clients reconnect and resume).
                for subscriber in everyone() { subscriber.endUnavailable() }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    private func everyone() -> [EventSubscriber] {
        state.withLock { state in Array(state.lists.values) + state.byRecipe.values.flatMap(\.values) }
    }

    private func deliver(_ decisions: [StreamedDecision]) throws {
        let ids = Set(decisions.compactMap(\.recipeID))
        let (perRecipe, lists) = state.withLock { state in
            (ids.reduce(into: [String: [EventSubscriber]]()) { found, id in
                if let subscribers = state.byRecipe[id] { found[id] = Array(subscribers.values) }
            }, Array(state.lists.values))
        }
        guard !perRecipe.isEmpty || !lists.isEmpty else { return }
        let states = try reads.streamStates(Array(ids))
        let cache = EventDataCache()
        for (id, subscribers) in perRecipe {
            let own = decisions.filter { $0.recipeID == id }
            for subscriber in subscribers { subscriber.deliver(own, states: states, cache: cache) }
        }
        for subscriber in lists { subscriber.deliver(decisions, states: states, cache: cache) }
    }
}
