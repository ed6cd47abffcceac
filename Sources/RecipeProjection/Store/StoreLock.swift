import Foundation
import Glibc
import Kafka

/// Who may write a store: projectors share it (in group mode several processes
/// project into one store), a replay holds it alone. It is an advisory `flock`
/// on the store file itself, which the kernel drops when its process dies,
/// even by SIGKILL, so a crash never leaves a store locked and no lock file is
/// left beside it. SQLite's own locks are POSIX record locks, which `flock`
/// locks do not touch on local file systems (and WAL stores need a local one).
final class StoreLock: Sendable {
    enum Mode: Sendable {
        /// Projectors: any number at once, but not beside a replay.
        case shared
        /// A replay: alone.
        case exclusive
    }

    private let descriptor: Int32
    private let path: String

    /// Takes the lock or throws `StoreError.inUse`: never waits for its holder (`FileLock`).
    /// Creates the store file if it is not there (SQLite takes an empty file as a new database).
    init(storePath: String, mode: Mode) throws {
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
        guard FileLock.take(descriptor, mode == .shared ? LOCK_SH : LOCK_EX) else {
            close(descriptor)
            throw StoreError.inUse(path: storePath, byReplay: mode == .shared)
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
