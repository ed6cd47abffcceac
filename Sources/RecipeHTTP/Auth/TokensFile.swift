import Foundation

/// A tokens file opened once and checked as opened, then read from that same open file, so
/// that no file swapped in by its name after the check (a symbolic link changed in a folder
/// others may write) is what gets read.
///
/// The checks are those ssh (StrictModes) makes of a key: whoever can read the file could try
/// the hashes offline, and whoever could write it, or replace it in its folder, could add an
/// admin. Symbolic links are followed when it is opened; then
/// - the opened file is a regular file owned by this user or root, and neither group nor others
///   may read or write it; group read is allowed for the process's own group only (Kubernetes'
///   fsGroup gives mounted secrets, 0400, group read for the pod's group, and nobody else is in it);
/// - every folder from the opened file's up to `/` is owned by this user or root, and neither
///   group nor others may write it unless it is sticky (`/tmp`, Kubernetes' secret volumes:
///   1777), where no one may rename or remove another's entries.
public final class TokensFile {
    private let descriptor: Int32
    private let path: String

    public init(opening path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw AccessTokensError(message: "cannot read the tokens file \(path)") }
        do {
            try checkFile()
            try checkFolders(of: try openedPath())
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// The whole file, read from the descriptor that was checked.
    public func text() throws -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw AccessTokensError(message: "cannot read the tokens file \(path)")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AccessTokensError(message: "the tokens file \(path) is not UTF-8 text")
        }
        return text
    }

    private func checkFile() throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw AccessTokensError(message: "cannot read the tokens file \(path)") }
        let user = geteuid()
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw AccessTokensError(message: "the tokens file \(path) is not a regular file")
        }
        guard info.st_uid == user || info.st_uid == 0 else {
            throw AccessTokensError(message: "the tokens file \(path) is owned by uid \(info.st_uid), not by this user (uid \(user)) "
                                    + "or root, so its owner could add an admin; run chown \(user) \(path)")
        }
        let ownGroupReads = info.st_gid == getegid() && info.st_mode & 0o070 == 0o040
        if info.st_mode & 0o007 != 0 || (info.st_mode & 0o070 != 0 && !ownGroupReads) {
            throw AccessTokensError(message: String(format: "the tokens file %@ may be read or written by group or others (mode %03o); run chmod 600 %@",
                                                    path, info.st_mode & 0o777, path))
        }
    }

    /// Where the opened file is, as the kernel names it: its folders are the ones checked.
    private func openedPath() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard length > 0 else { throw AccessTokensError(message: "cannot tell where the tokens file \(path) is") }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func checkFolders(of opened: String) throws {
        var info = stat()
        let user = geteuid()
        var folder = (opened as NSString).deletingLastPathComponent
        while true {
            guard stat(folder, &info) == 0 else { throw AccessTokensError(message: "cannot read the folder \(folder) of the tokens file \(path)") }
            guard info.st_uid == user || info.st_uid == 0 else {
                throw AccessTokensError(message: "the folder \(folder) of the tokens file \(path) is owned by uid \(info.st_uid), not by this user "
                                        + "(uid \(user)) or root, so its owner could replace the file; keep it in a folder of this user or root")
            }
            if info.st_mode & 0o022 != 0 && info.st_mode & S_ISVTX == 0 {
                throw AccessTokensError(message: String(format: "the folder %@ of the tokens file %@ may be written by group or others (mode %03o), "
                                                        + "who could replace the file; run chmod go-w %@", folder, path, info.st_mode & 0o777, folder))
            }
            if folder == "/" { return }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }
}
