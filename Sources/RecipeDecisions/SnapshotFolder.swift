import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folder of a decider's snapshots, private to the user the decider runs as (0700, its files
/// 0600). A snapshot holds recipes' states (owners, grants, drafts) and a decider adopts what it
/// says once the decisions topic bears out its last decision; its checksum tells damage, not a
/// forger. So only its owner may read or write it: the folder is checked when the decider is made,
/// and whatever group or others may do there is taken away (files written since are 0600 already).
enum SnapshotFolder {
    /// Makes `path` (0700) if it is missing; else refuses one another user owns, and takes the
    /// group's and others' permissions off it and the files in it.
    static func makePrivate(_ path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        var folder = stat()
        guard stat(path, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR else {
            throw DeciderError.snapshotsNotPrivate(path, "it is not a folder")
        }
        guard folder.st_uid == geteuid() else {
            throw DeciderError.snapshotsNotPrivate(path, "it belongs to uid \(folder.st_uid), not to uid \(geteuid()) the decider runs as")
        }
        if folder.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw DeciderError.snapshotsNotPrivate(path, "its mode cannot be made 0700 (errno \(errno))")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            var file = stat()
            let filePath = path + "/" + name
            guard lstat(filePath, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_mode & 0o077 != 0 else { continue }
            if chmod(filePath, 0o600) != 0 {
                throw DeciderError.snapshotsNotPrivate(path, "\(name)'s mode cannot be made 0600 (errno \(errno))")
            }
        }
    }

    /// Writes `bytes` to `path` whole or not at all, as a file only its owner may read (0600): a
    /// new file beside it, renamed over it.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".new-" + String(UInt64.random(in: 0 ... .max), radix: 16)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        var written = 0
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return true }
                written += n
            }
            return false
        }
        close(fd)
        guard !failed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
