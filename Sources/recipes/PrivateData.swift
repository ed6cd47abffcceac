import Foundation
import RecipeCLI

/// `recipes dev` keeps every recipe, its history and the decider's snapshots on disk: only the
/// user running it may read or change them. Files it makes from here on are its owner's alone
/// (umask 077), and what an earlier run (or an older build) left is made so too.
enum PrivateData {
    /// Makes new files and folders private to their owner, and `paths` (folders walked through)
    /// private where they already exist: folders 0700, files without group or others' bits.
    static func protect(_ paths: [String]) throws {
        umask(0o077)
        for path in paths { try makePrivate(path) }
    }

    private static func makePrivate(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            try change(path, to: 0o700)
            for name in try FileManager.default.contentsOfDirectory(atPath: path) { try makePrivate(path + "/" + name) }
        case S_IFREG:
            if info.st_mode & 0o077 != 0 { try change(path, to: info.st_mode & 0o700) }
        default:
            return  // a link is judged where it leads, if that is in the folder too
        }
    }

    private static func change(_ path: String, to mode: mode_t) throws {
        guard chmod(path, mode) == 0 else {
            throw UsageError("cannot make \(path) private to its owner (chmod: \(String(cString: strerror(errno))))")
        }
    }
}
