/// Who may write and read: with tokens every POST needs `Authorization: Bearer <token>`
/// and writes as the token's actor; with `privateReads` the data GETs need one too.
struct Access: Sendable {
    var tokens: AccessTokens?
    var privateReads: Bool
    /// The actor of commands when there are no tokens.
    var anonymousActor: String

    /// The actor a write is made by, or 401.
    func writer(_ request: HTTPRequest) throws -> String {
        guard let tokens else { return anonymousActor }
        guard let actor = tokens.actor(authorization: request.header("authorization")) else {
            throw HTTPError.unauthorized(request.header("authorization") == nil
                                         ? "writing needs Authorization: Bearer <token>" : "the token is not known")
        }
        return actor
    }

    /// Whether a read of data may go on, or 401.
    func reader(_ request: HTTPRequest) throws {
        guard privateReads else { return }
        _ = try writer(request)
    }
}
