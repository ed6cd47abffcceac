import RecipeDomain
import RecipeProjection
import Threads

/// One open event stream: what it follows (`scope`), whom it shows it to (`viewer`), and the
/// seam between its history and the live decisions. Live decisions that arrive while it sends
/// its history wait (at most `maxPending`); once the history is out they follow, those at or
/// before the positions the history reached dropped, so nothing is lost or sent twice. A stream whose client
/// falls behind (its queue full, `AnswerStream.maxQueuedBytes`) gets `overflow` and ends.
final class EventSubscriber: Sendable {
    enum Scope: Sendable {
        case recipe(RecipeID)
        /// The list's changes, filtered as `GET /v1/recipes?tag=&q=` filters.
        case list(tag: String?, query: String?)
    }

    /// Commands that can take a recipe off a list (edits change its draft, not the list, until a
    /// save): the list stream sends them even when the recipe no longer matches (`inList` false),
    /// so that clients drop it.
    static let listChanging: Set<String> = ["RecipeSaved", "RecipeDeleted", "DraftDiscarded"]
    static let maxPending = 10_000

    let scope: Scope
    /// Whose reads it is (`--private`); nil: it shows everything.
    let viewer: String?
    let stream: AnswerStream
    /// Told when the stream ends itself (overflow, deletion, revocation), before its client leaves.
    private let fanOut: EventFanOut
    private let state = Locked(State())

    private struct State {
        var live = false
        var done = false
        var pending: [StreamedDecision] = []
        var pendingStates: [String: RecipeStreamState] = [:]
        /// The last position sent (or resumed after) per partition: the list stream's id.
        var sent: [Int32: Int64] = [:]
        /// `sent` as the history left it: a live decision at or before it was in the history.
        /// Live decisions are each handed over once, so nothing else is dropped.
        var seam: [Int32: Int64] = [:]
    }

    init(scope: Scope, viewer: String?, stream: AnswerStream, fanOut: EventFanOut) {
        self.scope = scope
        self.viewer = viewer
        self.stream = stream
        self.fanOut = fanOut
    }

    private func ended() { fanOut.unsubscribe(self) }

    /// Sends `retry`, the history (past the queue's bound: it is read whole like the history
    /// route's answer), `caught-up`, then what came meanwhile; the stream is live after it.
    func catchUp(history: [StreamedDecision], states: [String: RecipeStreamState], after start: [Int32: Int64], endsAfter: Bool) {
        let cache = EventDataCache()
        let finished = state.withLock { state -> Bool in
            guard !state.done else { return false }
            stream.send(ServerSentEvents.retry(), evenPastBound: true)
            state.sent = start
            for decision in history where !emit(decision, states, cache, into: &state, pastBound: true) { return true }
            let after = Self.positions(state.sent)
            stream.send(ServerSentEvents.event("caught-up", data: after.isEmpty ? "{}" : #"{"after":"\#(after)"}"#), evenPastBound: true)
            if endsAfter { return end(&state) }
            state.seam = state.sent
            state.live = true
            let (pending, pendingStates) = (state.pending, state.pendingStates)
            state.pending = []
            state.pendingStates = [:]
            let merged = states.merging(pendingStates) { _, newer in newer }
            for decision in pending where !emit(decision, merged, cache, into: &state, pastBound: false) { return true }
            return false
        }
        if finished { ended() }
    }

    /// Live decisions of a commit (the fan-out's thread), with the recipes' states after it;
    /// `cache` holds their data, encoded once for every stream that sends them.
    func deliver(_ decisions: [StreamedDecision], states: [String: RecipeStreamState], cache: EventDataCache) {
        let finished = state.withLock { state -> Bool in
            guard !state.done else { return false }
            guard state.live else {
                state.pending += decisions
                state.pendingStates.merge(states) { _, newer in newer }
                return state.pending.count > Self.maxPending ? overflow(&state) : false
            }
            for decision in decisions where !emit(decision, states, cache, into: &state, pastBound: false) { return true }
            return false
        }
        if finished { ended() }
    }

    func ping() {
        let finished = state.withLock { state -> Bool in
            guard !state.done else { return false }
            return stream.send(ServerSentEvents.comment("ping")) ? false : overflow(&state)
        }
        if finished { ended() }
    }

    /// Ends with `reset`: the position asked for cannot be resumed after (`asked`, as `after=` takes it).
    func endReset(_ asked: String) {
        let finished = state.withLock { state -> Bool in
            guard !state.done else { return false }
            stream.send(ServerSentEvents.retry(), evenPastBound: true)
            stream.send(ServerSentEvents.event("reset", data: #"{"after":"\#(asked)"}"#), evenPastBound: true)
            return end(&state)
        }
        if finished { ended() }
    }

    /// The read side cannot answer: the stream ends, its client reconnects and resumes.
    func endUnavailable() {
        if state.withLock({ $0.done ? false : end(&$0) }) { ended() }
    }

    /// Sends a decision if the stream shows it; false when the stream has ended.
    private func emit(_ decision: StreamedDecision, _ states: [String: RecipeStreamState], _ cache: EventDataCache,
                      into state: inout State, pastBound: Bool) -> Bool {
        let before = state.live ? state.seam : state.sent
        guard decision.offset > before[decision.partition] ?? -1, let id = decision.recipeID else { return true }
        let recipe = states[id]
        if let viewer, let recipe, !recipe.access.isVisible(to: viewer) {
            // A grant revoked: nothing more of it is the viewer's to read.
            if case .recipe = scope { return !end(&state) }
            return true
        }
        var inList: Bool?
        if case .list(let tag, let query) = scope {
            guard let recipe else { return true }
            let listed = recipe.isListed(tag: tag, query: query)
            let changing = decision.item.outcome == .accepted && Self.listChanging.contains(decision.item.type)
            // Drafts (the caller's own under `--private`) on the unfiltered list only, as `/v1/drafts` shows them.
            let draft = tag == nil && query == nil && recipe.draftRevision != nil
            guard listed || draft || changing else { return true }
            inList = listed
        }
        state.sent[decision.partition] = max(decision.offset, state.sent[decision.partition] ?? -1)
        let eventID = if case .recipe = scope { decision.item.position } else { Self.positions(state.sent) }
        let frame = ServerSentEvents.event(id: eventID, decision.item.outcome.rawValue,
                                           data: cache.data(decision, recipe: recipe, inList: inList))
        guard stream.send(frame, evenPastBound: pastBound) else { return !overflow(&state) }
        if case .recipe = scope, decision.item.outcome == .accepted, decision.item.type == "RecipeDeleted" {
            return !end(&state)
        }
        return true
    }

    /// Ends the stream with `overflow` (what it queued dropped); true, for `ended`.
    private func overflow(_ state: inout State) -> Bool {
        state.done = true
        state.pending = []
        stream.end(with: ServerSentEvents.event("overflow", data: #"{"maxQueuedBytes":\#(stream.maxQueuedBytes)}"#), dropping: true)
        return true
    }

    private func end(_ state: inout State) -> Bool {
        state.done = true
        state.pending = []
        stream.end()
        return true
    }

    /// `P:O,P:O…` in partition order: the id of a list stream's event, and what `after=` takes.
    static func positions(_ positions: [Int32: Int64]) -> String {
        positions.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }
}

/// The data of each decision's event, encoded once per delivery (or catch-up) however many
/// streams send it: the recipes' states are the same for all of them. Used by one thread.
final class EventDataCache {
    private struct Key: Hashable {
        var partition: Int32
        var offset: Int64
        var inList: Bool?
    }

    private var texts: [Key: String] = [:]

    func data(_ decision: StreamedDecision, recipe: RecipeStreamState?, inList: Bool?) -> String {
        let key = Key(partition: decision.partition, offset: decision.offset, inList: inList)
        if let text = texts[key] { return text }
        let text = StreamedEventData(decision, recipe: recipe, inList: inList).json()
        texts[key] = text
        return text
    }
}
