import CMicroHTTPD
import Foundation

/// Where a request's body ends must be read the same way by every hop, or a proxy in front and
/// this server see different requests on one connection (request smuggling). libmicrohttpd
/// 0.9.75 is lenient where that matters: `Transfer-Encoding` wins over `Content-Length` when both
/// are sent, a second `Content-Length` is ignored, any other transfer coding reads the body until
/// the connection closes, a bare LF ends a line, a line that starts with a space continues the
/// header before it (obs-fold), a bare CR stays inside a header's value, and
/// `MHD_OPTION_STRICT_FOR_CLIENT` refuses none of these. So the head is checked here, once the
/// headers are in and before anything else: each of these, a control character other than tab in
/// a value, and a second `Host` (which name the request is for must be as clear), is 400 `badFraming`, and the
/// connection closes after the answer.
enum RequestFraming {
    /// Nil when the head frames its body one way only; else why not.
    static func violation(_ connection: OpaquePointer, version: UnsafePointer<CChar>?) -> String? {
        let scan = HeadScan(version: version)
        withExtendedLifetime(scan) {
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, { context, _, key, keySize, value, valueSize in
                guard let context, let key else { return MHD_Result.NO }
                Unmanaged<HeadScan>.fromOpaque(context).takeUnretainedValue().line(key, keySize, value, valueSize)
                return MHD_Result.YES
            }, Unmanaged.passUnretained(scan).toOpaque())
        }
        if let problem = scan.problem { return problem }
        if scan.hosts > 1 { return "the request has \(scan.hosts) Host headers" }
        switch (scan.contentLengths, scan.transferEncodings.count) {
        case (let lengths, _) where lengths > 1:
            return "the request has \(lengths) Content-Length headers"
        case (_, let codings) where codings > 1:
            return "the request has \(codings) Transfer-Encoding headers"
        case (1, 1):
            return "the request has both Content-Length and Transfer-Encoding"
        case (_, 1) where scan.transferEncodings[0].lowercased() != "chunked":
            return "the only transfer coding read is chunked, not \(scan.transferEncodings[0])"
        default:
            return nil
        }
    }

    /// The header lines as libmicrohttpd left them. It parses the head in place: each line's CRLF
    /// becomes two NULs, a bare LF one, and a folded line is joined elsewhere in its memory. So a
    /// header whose name does not start two bytes after the end of the line before it came after a
    /// bare LF or a folded line (the request line ends where its version ends). The last header
    /// line's end cannot be told from the empty line's this way; a bare LF there adds no header.
    private final class HeadScan {
        var expectedNextKey: UnsafePointer<CChar>?
        var contentLengths = 0
        var hosts = 0
        var transferEncodings: [String] = []
        var problem: String?

        init(version: UnsafePointer<CChar>?) {
            expectedNextKey = version.map { $0 + strlen($0) + 2 }
            if version == nil { problem = "the request has no HTTP version" }
        }

        func line(_ key: UnsafePointer<CChar>, _ keySize: Int, _ value: UnsafePointer<CChar>?, _ valueSize: Int) {
            guard problem == nil else { return }
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
            guard key == expectedNextKey else {
                problem = "a header line before \(name) does not end with CRLF, or continues on the next line"
                return
            }
            guard keySize > 0, UnsafeBufferPointer(start: key, count: keySize).allSatisfy({ Self.isTokenByte(UInt8(bitPattern: $0)) }) else {
                problem = "the header name \"\(name)\" is not a token (a space before the colon?)"
                return
            }
            guard let value else { problem = "the header \(name) has no value"; return }
            // A bare CR (or another control) inside a value is a line end to some hops.
            if let control = UnsafeRawBufferPointer(start: value, count: valueSize).first(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) {
                problem = String(format: "the header %@ holds the control character 0x%02X", name, control)
                return
            }
            expectedNextKey = value + valueSize + 2
            switch name.lowercased() {
            case "content-length": contentLengths += 1
            case "host": hosts += 1
            case "transfer-encoding":
                transferEncodings.append(String(decoding: UnsafeRawBufferPointer(start: value, count: valueSize), as: UTF8.self))
            default: break
            }
        }

        /// RFC 9110 `tchar`.
        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }
    }
}
