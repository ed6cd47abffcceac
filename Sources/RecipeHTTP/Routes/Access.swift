import Foundation
import RecipeDomain
import RecipeProjection
import Synchronization

/// Who is asking, as the gateway knows it: the token's actor and role, or the
/// anonymous actor with no role when the server runs without tokens.
struct Caller: Sendable, Equatable {
    var actor: String
    /// Written into the records this caller appends (`actorrole`), so that the
    /// fold decides access from the log alone; nil without tokens.
    var role: ActorRole?

    var isAdmin: Bool { role == .admin }
}

/// Who may write and read: with tokens every POST needs `Authorization: Bearer <token>`
/// and writes as the token's actor with its role; with `privateReads` the data GETs
/// need one too, and show each caller only the recipes it owns or holds a grant on
/// (admins see all). Appends are limited per actor by `appendLimiter`.
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

    /// The caller a write is made by: 401 without a known token, 403 for a reader,
    /// 429 when the actor is over its append rate.
    func writer(_ request: HTTPRequest) throws -> Caller {
        let caller = try tokens.map { try authenticated(request, $0) } ?? Caller(actor: anonymousActor, role: nil)
        if caller.role == .reader {
            throw HTTPError(403, "forbidden", "\(caller.actor) has the reader role and may not write")
        }
        if let appendLimiter, let wait = appendLimiter.take(caller.actor) {
            let seconds = max(1, Int(wait.seconds.rounded(.up)))
            throw HTTPError(429, "rateLimited", "\(caller.actor) is appending faster than \(appendLimiter.describe); try again in \(seconds) s",
                            headers: [("Retry-After", String(seconds))])
        }
        return caller
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

/// A token bucket per actor: `burst` appends at once, refilled at `perSecond`.
/// Times come from the monotonic clock; the buckets of actors idle long enough
/// to be full again are dropped, so memory follows the active actors.
final class RateLimiter: Sendable {
    let perSecond: Double
    let burst: Double
    private let buckets = Mutex<[String: (tokens: Double, at: ContinuousClock.Instant)]>([:])

    init(perSecond: Double, burst: Int) {
        precondition(perSecond > 0 && burst >= 1)
        self.perSecond = perSecond
        self.burst = Double(burst)
    }

    var describe: String { "\(perSecond.formatted()) per second (bursts of \(Int(burst)))" }

    /// Takes one token for `actor`: nil when it had one, else how long until it will.
    func take(_ actor: String, now: ContinuousClock.Instant = .now) -> Duration? {
        buckets.withLock { buckets in
            if buckets.count > 10_000 {
                buckets = buckets.filter { (now - $0.value.at).seconds * perSecond + $0.value.tokens < burst }
            }
            var bucket = buckets[actor] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.at).seconds * perSecond)
            bucket.at = now
            defer { buckets[actor] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return .seconds((1 - bucket.tokens) / perSecond)
        }
    }
}
