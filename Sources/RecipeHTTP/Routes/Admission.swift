/// What the API decides from a request's head alone, before any byte of its body is read
/// (`RecipeAPIHandler.admit`), so that a request that will be refused costs no more than its
/// head: the name it was sent to (`Host`), the page it comes from (`Origin`), the route and
/// method, the token of a write, and the body's media type; the server then holds the body to
/// the route's size. The handlers decide again what they must (the caller of every write, the
/// rate), so a request answered in process without this step is still checked.
struct Admission: Sendable {
    /// The names (without port, lowercase) the API answers to; empty: any.
    let hostNames: Set<String>
    /// Origins (`scheme://host[:port]`, lowercase) whose pages may call the API besides its own.
    let allowedOrigins: Set<String>
    let access: Access

    /// The route's limit on the body, or why the request is refused.
    func decide<Handler>(_ head: HTTPRequest, route: Result<Router<Handler>.Match, HTTPError>) -> Result<Int, HTTPError> {
        Result {
            try checkHost(head)
            try checkOrigin(head)
            let intake = try route.get().takes
            try Access.refuseTokenInQuery(head)
            if intake.writes { _ = try access.author(head) }
            if head.declaresBody, !intake.mediaTypes.isEmpty {
                let mediaType = head.header("content-type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                guard let mediaType, intake.mediaTypes.contains(mediaType) else {
                    throw HTTPError(415, "unsupportedMediaType",
                                    "\(head.path) takes \(intake.mediaTypes.joined(separator: " or ")), not \(head.header("content-type") ?? "a body without Content-Type")")
                }
            }
            return intake.maxBodySize
        }.mapError { $0 as? HTTPError ?? HTTPError.internal("\($0)") }
    }

    /// A browser reaching a name that resolves to this machine (DNS rebinding) sends that name: the
    /// API answers only to its own. 421, as for a request that reached the wrong server.
    private func checkHost(_ head: HTTPRequest) throws {
        guard !hostNames.isEmpty, let host = head.header("host") else { return }
        let name = Self.name(ofAuthority: host)
        guard hostNames.contains(name) else {
            throw HTTPError(421, "unknownHost", "this server answers to \(hostNames.sorted().joined(separator: ", ")), not \(name)")
        }
    }

    /// A browser names the page a request comes from in `Origin` (every POST, any cross-origin
    /// fetch): a page of another origin may not use the API, whatever its request looks like.
    /// The API's own origin is the one the request was sent to (`Host`).
    private func checkOrigin(_ head: HTTPRequest) throws {
        guard let origin = head.header("origin")?.lowercased() else { return }
        if allowedOrigins.contains(origin) { return }
        let authority = origin.split(separator: "://", maxSplits: 1).dropFirst().first
        if let authority, let host = head.header("host")?.lowercased(), authority == host,
           origin.hasPrefix("http://") || origin.hasPrefix("https://") {
            return
        }
        throw HTTPError(403, "crossOrigin", "requests from pages of \(origin) are not allowed; a server may allow an origin with --allowed-origins")
    }

    /// `example.com` of `example.com:8080`, `[::1]` of `[::1]:8080`, in lower case.
    static func name(ofAuthority authority: String) -> String {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("["), let end = lowered.firstIndex(of: "]") { return String(lowered[...end]) }
        return String(lowered[..<(lowered.utf8.firstIndex(of: UInt8(ascii: ":")) ?? lowered.endIndex)])
    }
}
