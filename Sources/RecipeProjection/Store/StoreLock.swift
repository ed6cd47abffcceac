import Glibc

/// Who may write a store: projectors share it (in group mode several processes
/// project into one store), a replay holds it alone. It is an advisory lock on
/// `<store>.lock`, which the kernel drops when its process dies, even by
/// SIGKILL, so a crash never leaves a store locked.
final class StoreLock: Sendable {
    enum Mode: Sendable {
        /// Projectors: any number at once, but not beside a replay.
        case shared
        /// A replay: alone.
        case exclusive
    }

    private let descriptor: Int32

    /// Takes the lock or throws `StoreError.inUse` at once: never waits.
    init(storePath: String, mode: Mode) throws {
        let path = storePath + ".lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError.corrupted("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            close(descriptor)
            throw StoreError.inUse(path: storePath, byReplay: mode == .shared)
        }
    }

    deinit { close(descriptor) }
}
