import Foundation
import Glibc
import Kafka

/// Who writes a store: one projector (`recipes project`, `serve`, `dev`, or a
/// replay) at a time, since each judges against positions it alone moves. It
/// is an advisory exclusive `flock` on the store file itself, which the kernel
/// drops when its process dies, even by SIGKILL, so a crash never leaves a
/// store locked and no lock file is left beside it. SQLite's own locks are
/// POSIX record locks, which `flock` locks do not touch on local file systems
/// (and WAL stores need a local one).
final class StoreLock: Sendable {
    private let descriptor: Int32
    private let path: String

    /// Takes the lock or throws `StoreError.inUse`: never waits for its holder (`FileLock`).
    /// Creates the store file if it is not there (SQLite takes an empty file as a new database).
    init(storePath: String) throws {
        path = storePath
        let folder = URL(fileURLWithPath: storePath).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw StoreError.noSuchFolder(folder)
        }
        descriptor = open(storePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError.cannotOpen(path: storePath, reason: String(cString: strerror(errno)))
        }
        guard FileLock.take(descriptor, LOCK_EX) else {
            close(descriptor)
            throw StoreError.inUse(path: storePath)
        }
    }

    deinit { close(descriptor) }

    /// Whether the path still names the file this lock holds: not removed, not replaced.
    var isStillInPlace: Bool {
        var held = stat(), named = stat()
        guard fstat(descriptor, &held) == 0, stat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }
}
