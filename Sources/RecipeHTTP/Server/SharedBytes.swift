import Foundation

/// Bytes that many answers send unchanged (the console's files): one buffer, allocated once,
/// which every connection sends from without a copy of its own. It lives while an answer still
/// sends it (each answer holds it until libmicrohttpd releases the response).
public final class SharedBytes: Sendable {
    /// The same bytes as an array, for whoever reads `HTTPResponse.body`.
    public let array: [UInt8]
    /// Read only, never written after `init`.
    nonisolated(unsafe) let base: UnsafeMutableRawPointer
    var count: Int { array.count }

    public init(_ bytes: [UInt8]) {
        array = bytes
        base = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        bytes.withUnsafeBytes { if let source = $0.baseAddress { base.copyMemory(from: source, byteCount: $0.count) } }
    }

    deinit { base.deallocate() }
}
