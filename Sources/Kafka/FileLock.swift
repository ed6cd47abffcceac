import Foundation
import Glibc

/// `flock` for locks that say "one process at a time": taken at once, or refused.
public enum FileLock {
    /// Takes `operation` (`LOCK_SH` or `LOCK_EX`) on `descriptor` without waiting for another
    /// process, but tries again for up to `patience` first. A process this one is starting
    /// holds a copy of every descriptor from its fork to its exec (close-on-exec closes them
    /// only then), and with it, for those moments, the locks on them: on a busy machine a
    /// lock released here could be refused for a few milliseconds to someone else here.
    public static func take(_ descriptor: Int32, _ operation: Int32, patience: Duration = .seconds(1)) -> Bool {
        let deadline = ContinuousClock.now + patience
        while flock(descriptor, operation | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK, ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}
