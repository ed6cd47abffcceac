import Foundation
import RecipeCLI
import RecipeHTTP

/// The HTTP server's flags that `serve` and `dev` share: tokens and who may read,
/// limits against clients that hold too much, the append rate, TLS.
enum ServerFlags {
    static let specs: [OptionSpec] = [
        .value("tokens", "FILE", "Bearer tokens: lines `sha256:<hex> actor role` (recipes tokens add); the file must be mode 600, owned by this user or root, in folders only they may change."),
        .flag("private", "With --tokens: reading needs a token too, and each sees only the recipes it owns or was given."),
        .value("max-connections", "N", "HTTP connections at once, in all (at most what the open-file limit allows).",
               default: String(HTTPServer.Limits().maxConnections)),
        .value("max-connections-per-client", "N", "HTTP connections at once from one IP address; 0: no limit of its own (default: half of --max-connections, none with --trusted-proxies)."),
        .value("trusted-proxies", "ADDRESS,…", "Proxies (addresses or networks, 10.0.0.0/8) whose X-Forwarded-For names the client, e.g. for the append rate."),
        .value("public-names", "HOST,…", "Names clients reach the server by (the Host header); others are 421. On loopback, localhost, 127.0.0.1 and [::1] too."),
        .value("allowed-origins", "ORIGIN,…", "Origins (https://app.example) whose pages may call the API besides its own; others are 403."),
        .value("connection-timeout", "SECONDS", "Close a connection idle this long (slow or idle clients).", default: "15"),
        .value("answer-memory", "MIB", "Memory that answers clients have not yet read may hold (and again connections kept open after an answer, and again request bodies being read); past it 503 busy.",
               default: String(HTTPServer.Limits().answerMemory >> 20)),
        .value("answer-memory-per-client", "MIB", "The same per client address; 0: no bound of its own (default: a quarter of --answer-memory)."),
        .value("max-waiters", "N", "Requests waiting for the read model at once (`after=`, `?wait=true`); more are 503 busy with Retry-After.", default: "64"),
        .value("tls-cert", "FILE", "Serve HTTPS with this PEM certificate chain (with --tls-key)."),
        .value("tls-key", "FILE", "The PEM private key of --tls-cert; the file must be mode 600."),
    ]

    /// `--append-rate` and `--append-burst`, with the defaults of `dev` or `serve` (`rate` 0: unlimited).
    static func appendRateSpecs(rate: String, burst: String) -> [OptionSpec] {
        [.value("append-rate", "PER_SECOND", "Commands each actor may append per second (a token bucket; a batch's commands each count); 0: unlimited.",
                default: rate),
         .value("append-burst", "N", "Commands each actor may append at once before --append-rate applies.", default: burst)]
    }

    /// The tokens file, read and checked; its warnings are printed.
    static func tokens(_ args: ParsedArguments) throws -> AccessTokens? {
        guard let path = args.string("tokens") else { return nil }
        do {
            let tokens = try AccessTokens(contentsOf: path)
            for warning in tokens.warnings { say("warning: \(warning)") }
            return tokens
        } catch let error as AccessTokensError {
            throw UsageError("--tokens: \(error.message)")
        }
    }

    /// The API's options from the flags.
    static func api(_ args: ParsedArguments, tokens: AccessTokens?, wait: Duration) throws -> RecipeAPIOptions {
        if args.flag("private") && tokens == nil { throw UsageError("--private needs --tokens FILE") }
        var options = RecipeAPIOptions(tokens: tokens, privateReads: args.flag("private"), waitTimeout: wait)
        options.maxWaiters = try args.int("max-waiters", in: 1...100_000)!
        guard let rateText = args.string("append-rate"), let rate = Double(rateText), rate >= 0, rate <= 1_000_000 else {
            throw UsageError("--append-rate must be a number of appends per second from 0 to 1000000, got \"\(args.string("append-rate") ?? "")\"")
        }
        let burst = try args.int("append-burst", in: 1...1_000_000)!
        options.appendRate = rate > 0 ? (rate, burst) : nil
        options.hostNames = Set(try list(args, "public-names").map { name in
            guard !name.contains("/"), !name.contains(" "), !name.contains(":") || name.hasPrefix("[") else {
                throw UsageError("--public-names: \"\(name)\" is not a host name (give it without scheme or port)")
            }
            return name.lowercased()
        })
        options.allowedOrigins = Set(try list(args, "allowed-origins").map { origin in
            guard let url = URLComponents(string: origin), ["http", "https"].contains(url.scheme), url.host?.isEmpty == false,
                  url.path.isEmpty, url.query == nil else {
                throw UsageError("--allowed-origins: \"\(origin)\" is not an origin such as https://app.example or http://localhost:3000")
            }
            return origin.lowercased()
        })
        return options
    }

    /// The server's limits and TLS identity from the flags.
    static func limits(_ args: ParsedArguments) throws -> HTTPServer.Limits {
        var limits = HTTPServer.Limits()
        limits.maxConnections = try args.int("max-connections", in: 1...1_000_000)!
        limits.maxConnectionsPerClient = try args.int("max-connections-per-client", in: 0...1_000_000)
        limits.connectionTimeoutSeconds = try args.int("connection-timeout", in: 1...3600)!
        limits.answerMemory = try args.int("answer-memory", in: 1...1_048_576)! << 20
        limits.answerMemoryPerClient = try args.int("answer-memory-per-client", in: 0...1_048_576).map { $0 << 20 }
        let proxies = try list(args, "trusted-proxies")
        do {
            limits.trustedProxies = try TrustedProxies(proxies)
        } catch {
            throw UsageError("--trusted-proxies: \(error.message)")
        }
        // The open-file limit (raised to its hard limit here) may hold fewer connections than asked.
        let capacity = HTTPServer.connectionCapacity()
        if capacity < limits.maxConnections {
            say("note: at most \(capacity) connections, not \(limits.maxConnections): this process may open \(capacity + HTTPServer.reservedFiles) files (ulimit -Hn)")
        }
        switch (args.string("tls-cert"), args.string("tls-key")) {
        case (nil, nil):
            break
        case (let cert?, let key?):
            limits.tlsCertificatePEM = try pem(cert, flag: "tls-cert", secret: false)
            limits.tlsKeyPEM = try pem(key, flag: "tls-key", secret: true)
        default:
            throw UsageError("--tls-cert and --tls-key go together")
        }
        return limits
    }

    /// The items of a comma-separated option, none when it is not given.
    private static func list(_ args: ParsedArguments, _ name: String) throws -> [String] {
        guard let text = args.string(name) else { return [] }
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else { throw UsageError("--\(name) needs a comma-separated list, got \"\(text)\"") }
        return items
    }

    private static func pem(_ path: String, flag: String, secret: Bool) throws -> String {
        if secret {
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
                throw UsageError(String(format: "--%@: %@ may be read by group or others (mode %03o); run chmod 600 %@",
                                        flag, path, info.st_mode & 0o777, path))
            }
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("-----BEGIN") else {
            throw UsageError("--\(flag): cannot read a PEM file at \(path)")
        }
        return text
    }

    /// What the start-up line says about who may write.
    static func accessLine(_ tokens: AccessTokens?, _ args: ParsedArguments, listening: String) -> String {
        guard let tokens else { return "open: no --tokens, anyone who reaches \(listening) may write" }
        let roles = Dictionary(grouping: tokens.entries, by: \.role).map { "\($0.value.count) \($0.key.rawValue)" }.sorted()
        return "auth: \(tokens.entries.count) token(s) (\(roles.joined(separator: ", ")))\(args.flag("private") ? ", reads need a token too" : "")"
    }
}
