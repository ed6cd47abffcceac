import CGnuTLS

/// The SHA-256 of a token and a comparison of two hashes that takes as long whatever they
/// hold, from GnuTLS (which libmicrohttpd links already): hashing is a library's job.
enum TokenHash {
    static func sha256(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let status = message.withUnsafeBytes { input in
            digest.withUnsafeMutableBytes { output in
                gnutls_hash_fast(GNUTLS_DIG_SHA256, input.baseAddress, input.count, output.baseAddress)
            }
        }
        // SHA-256 is always available in GnuTLS; a failure means the library is broken.
        precondition(status == 0, "GnuTLS cannot hash with SHA-256: error \(status)")
        return digest
    }

    static func sha256Hex(_ message: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: sha256(message).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
    }

    /// Whether two hashes are equal, compared in full: no early exit on the first differing byte.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in b.withUnsafeBytes { right in gnutls_memcmp(left.baseAddress, right.baseAddress, a.count) == 0 } }
    }
}
