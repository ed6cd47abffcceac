import Foundation
import RecipeDomain
import RecipeProjection
import Threads

/// Who is asking, as the gateway knows it: the token's actor and role, or the
/// anonymous actor with no role when the server runs without tokens.
struct Caller: Sendable, Equatable {
    var actor: String
    /// Written into the records this caller appends (`actorrole`), so that the
    /// fold decides access from the log alone; nil without tokens.
    var role: ActorRole?
    /// Without tokens, the client address it writes from (`HTTPRequest.clientAddress`).
    var address: String? = nil

    var isAdmin: Bool { role == .admin }
    /// Whose append rate a write counts against: the actor, or without tokens (where every writer
    /// is the anonymous actor) the anonymous actor at its client address.
    var appender: String { address.map { "\(actor) at \($0)" } ?? actor }
}

/// Who may write and read: with tokens every POST needs `Authorization: Bearer <token>`
/// and writes as the token's actor with its role; with `privateReads` the data GETs
/// need one too, and show each caller only the recipes it owns or holds a grant on
/// (admins see all). Appends are limited per actor and command by `appendLimiter` (without
/// tokens, per client address).
struct Access: Sendable {
    var tokens: AccessTokens?
    var privateReads: Bool
    /// The actor of commands when there are no tokens.
    var anonymousActor: String
    var appendLimiter: RateLimiter?

    /// Query parameters that would carry a token: refused everywhere, since URLs
    /// end up in logs, proxies and browser histories.
    static let tokenParameters = ["token", "access_token"]

    /// 400 when the request tries to pass a token in its query string.
    static func refuseTokenInQuery(_ request: HTTPRequest) throws {
        if let name = tokenParameters.first(where: { request.query[$0] != nil }) {
            throw HTTPError(400, "tokenInQuery", "tokens are taken only from Authorization: Bearer <token>, never from the query (\(name)=)",
                            field: name)
        }
    }

    /// The caller of a request that needs a token, or 401.
    private func authenticated(_ request: HTTPRequest, _ tokens: AccessTokens) throws -> Caller {
        guard let entry = tokens.entry(authorization: request.header("authorization")) else {
            throw HTTPError.unauthorized(request.header("authorization") == nil
                                         ? "this needs Authorization: Bearer <token>" : "the token is not known")
        }
        return Caller(actor: entry.actor, role: entry.role)
    }

    /// The caller a write of one command is made by: 401 without a known token, 403 for a
    /// reader, 429 when the actor is over its append rate.
    func writer(_ request: HTTPRequest) throws -> Caller {
        let caller = try author(request)
        try takeAppends(1, by: caller)
        return caller
    }

    /// Who may write, before the commands are counted: 401 without a known token, 403 for a
    /// reader. Asked from the head of a request too, before its body is read (`Admission`).
    func author(_ request: HTTPRequest) throws -> Caller {
        let caller = try tokens.map { try authenticated(request, $0) }
            ?? Caller(actor: anonymousActor, role: nil, address: request.clientAddress.isEmpty ? nil : request.clientAddress)
        if caller.role == .reader {
            throw HTTPError(403, "forbidden", "\(caller.actor) has the reader role and may not write")
        }
        return caller
    }

    /// Counts `commands` appends against the caller's rate: 429 when it is over it.
    func takeAppends(_ commands: Int, by caller: Caller) throws {
        guard let appendLimiter, let wait = appendLimiter.take(caller.appender, count: commands) else { return }
        let seconds = max(1, Int(wait.seconds.rounded(.up)))
        let these = commands == 1 ? "" : " (this request has \(commands) commands)"
        throw HTTPError(429, "rateLimited", "\(caller.appender) is appending faster than \(appendLimiter.describe)\(these); try again in \(seconds) s",
                        headers: [("Retry-After", String(seconds))])
    }

    /// Whether a read of data may go on (401 if not); the caller when reads are
    /// private, nil when anyone may read everything.
    @discardableResult
    func reader(_ request: HTTPRequest) throws -> Caller? {
        guard privateReads, let tokens else { return nil }
        return try authenticated(request, tokens)
    }

    /// Whom a list is filtered for: nil when the caller sees everything.
    func listFilter(_ caller: Caller?) -> String? {
        guard let caller, !caller.isAdmin else { return nil }
        return caller.actor
    }

    /// 404 unless `caller` may see the recipe: the same answer as for a recipe that
    /// does not exist, so a stranger cannot tell the two apart.
    func checkVisible<Reads: RecipeReads>(_ id: RecipeID, to caller: Caller?, in reads: Reads) throws {
        guard let caller, !caller.isAdmin else { return }
        guard let access = try reads.access(id), access.isVisible(to: caller.actor) else {
            throw QueryError.notFound(id.text)
        }
    }
}

extension Access {
    /// `receipt` with its command's outcome (`item`) as the command's actor may learn it.
    /// Under `--private`, a command refused (or counted a duplicate) on a recipe its actor may
    /// not see is answered as one on a recipe that does not exist: what the rules (`RecipeJudge`)
    /// decide for it on a recipe no command touched, at revision 0: no answer tells a stranger who owns it or
    /// how far it got. Where that recipe would have taken it (an edit makes a new recipe), it is
    /// `forbidden`, naming no one: it was not applied, so it cannot be answered `accepted`, and
    /// that tells the caller the id is taken. The protection there is the id's randomness (the
    /// server's ids are random UUIDs): a stranger learns it only of an id it was given.
    func receipt<Reads: RecipeReads>(_ receipt: CommandReceipt, withOutcome item: HistoryItem, of envelope: CommandEnvelope,
                                     in reads: Reads) throws -> CommandReceipt {
        var receipt = receipt
        receipt.outcome = item.outcome
        receipt.revision = item.revision
        receipt.reason = item.outcome == .rejected ? item.reason : nil
        let caller = Caller(actor: envelope.actor, role: envelope.actorRole)
        guard privateReads, item.outcome != .accepted, !caller.isAdmin,
              try reads.access(envelope.recipeID)?.isVisible(to: caller.actor) != true else { return receipt }
        let rejection = switch RecipeJudge.decide(envelope, against: Recipe(id: envelope.recipeID)) {
        case .rejected(let rejection): rejection
        case .accepted, .duplicate: Rejection(.forbidden, "\(caller.actor) has no access to this recipe; its owner may share it.")
        }
        receipt.outcome = .rejected
        receipt.revision = 0
        receipt.reason = ReasonView(code: rejection.code.rawValue, message: rejection.message)
        return receipt
    }
}

/// A token bucket per actor: `burst` commands at once, refilled at `perSecond`; each
/// command appended takes one. Times come from the monotonic clock; the buckets of
/// actors idle long enough to be full again are dropped, so memory follows the active actors.
final class RateLimiter: Sendable {
    let perSecond: Double
    let burst: Double
    private let buckets = Locked<[String: (tokens: Double, at: ContinuousClock.Instant)]>([:])

    init(perSecond: Double, burst: Int) {
        precondition(perSecond > 0 && burst >= 1)
        self.perSecond = perSecond
        self.burst = Double(burst)
    }

    var describe: String { "\(perSecond.formatted()) commands per second (bursts of \(Int(burst)))" }

    /// Takes `count` tokens for `actor` when its bucket holds them, or is full: a request of
    /// more than `burst` commands goes ahead then, and leaves the bucket below zero, so the
    /// actor's next request waits for all of them. Nil when it went ahead, else how long until it may.
    func take(_ actor: String, count: Int = 1, now: ContinuousClock.Instant = .now) -> Duration? {
        buckets.withLock { buckets in
            if buckets.count > 10_000 {
                buckets = buckets.filter { (now - $0.value.at).seconds * perSecond + $0.value.tokens < burst }
            }
            var bucket = buckets[actor] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.at).seconds * perSecond)
            bucket.at = now
            defer { buckets[actor] = bucket }
            let needed = min(Double(count), burst)
            if bucket.tokens >= needed {
                bucket.tokens -= Double(count)
                return nil
            }
            return .seconds((needed - bucket.tokens) / perSecond)
        }
    }
}
