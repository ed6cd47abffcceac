import Foundation

/// The proxies whose `X-Forwarded-For` the server believes: addresses or networks
/// (`10.0.0.0/8`, `fd00::/8`). Behind them every client has the proxy's address, so the
/// client's own is taken from the header (`client(peer:forwardedFor:)`).
public struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        var bytes: [UInt8]
        var prefixBits: Int
    }

    let networks: [Network]

    public init() { networks = [] }

    /// Each entry an IPv4 or IPv6 address, optionally with `/bits`; throws naming the first that is not.
    public init(_ entries: [String]) throws(HTTPServerError) {
        networks = try entries.map { (entry) throws(HTTPServerError) -> Network in
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = parts.first.flatMap(Self.bytes) else {
                throw HTTPServerError(message: "\"\(entry)\" is not an IP address or network (10.0.0.1, 10.0.0.0/8, fd00::/8)")
            }
            let bits = parts.count > 1 ? Int(parts[1]) : bytes.count * 8
            guard let bits, (0...bytes.count * 8).contains(bits) else {
                throw HTTPServerError(message: "\"\(entry)\": the prefix must be 0…\(bytes.count * 8) bits")
            }
            return Network(bytes: bytes, prefixBits: bits)
        }
    }

    public var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` (text) is one of the proxies.
    public func contains(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.bytes(address) else { return false }
        return networks.contains { network in
            guard network.bytes.count == bytes.count else { return false }
            let whole = network.prefixBits / 8
            guard bytes[..<whole] == network.bytes[..<whole] else { return false }
            let rest = network.prefixBits % 8
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return bytes[whole] & mask == network.bytes[whole] & mask
        }
    }

    /// The client a request comes from. From a trusted proxy, the last address of
    /// `X-Forwarded-For` that is not itself a trusted proxy: each proxy appends the address it
    /// was reached from, so the entries before the proxies' own are whatever the client wrote.
    public func client(peer: String, forwardedFor: String?) -> String {
        guard contains(peer), let forwardedFor else { return peer }
        var client = peer
        for entry in forwardedFor.split(separator: ",").reversed() {
            client = entry.trimmingCharacters(in: .whitespaces)
            if !contains(client) { break }
        }
        return client.isEmpty ? peer : String(client.prefix(64))
    }

    /// The 4 or 16 bytes of an address in text.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
