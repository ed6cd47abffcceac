/// The web console: `GET /` (its page) and `GET /console/{file}` (its stylesheet and script).
/// Plain HTML, CSS and JavaScript from `Sources/RecipeHTTP/Console/`, compiled into the binary
/// (`resources: [.embedInCode("Console")]` in Package.swift), so `recipes serve` needs no files
/// at run time. The console holds no data: it calls the API under `/v1` from the browser, with
/// the bearer token the user gives it, so these routes stay open even with `--private`.
struct ConsoleRoutes: Sendable {
    struct Asset: Sendable {
        var contentType: String
        /// One buffer that every connection sends from (3,000 clients that never read it cost no copy each).
        var body: SharedBytes
    }

    /// The page at `/`.
    static let page = Asset(contentType: "text/html; charset=utf-8", body: SharedBytes(PackageResources.index_html))

    /// The files under `/console/` by name. Every file of `Console/` but `index.html` needs its line here
    /// (ConsoleTests checks that each one is served).
    static let assets: [String: Asset] = [
        "console.css": Asset(contentType: "text/css; charset=utf-8", body: SharedBytes(PackageResources.console_css)),
        "console.js": Asset(contentType: "text/javascript; charset=utf-8", body: SharedBytes(PackageResources.console_js)),
        "live.js": Asset(contentType: "text/javascript; charset=utf-8", body: SharedBytes(PackageResources.live_js)),
        "nutrition.js": Asset(contentType: "text/javascript; charset=utf-8", body: SharedBytes(PackageResources.nutrition_js)),
    ]

    /// The page may load only its own files and call only its own origin; no frames, no plugins.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
         + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        // A new binary may carry a new console: the browser asks again each time.
        ("Cache-Control", "no-cache"),
    ]

    func register(in router: inout Router<RouteHandler>) {
        router.add("GET", "/", index)
        router.add("GET", "/console/{file}", asset)
    }

    func index(_ request: HTTPRequest) throws -> HTTPResponse {
        Self.response(Self.page)
    }

    func asset(_ request: HTTPRequest) throws -> HTTPResponse {
        let file = request.parameter("file")
        guard let asset = Self.assets[file] else { throw HTTPError.notFound("no console file \(file)") }
        return Self.response(asset)
    }

    static func response(_ asset: Asset) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", asset.contentType)] + securityHeaders, shared: asset.body)
    }
}
