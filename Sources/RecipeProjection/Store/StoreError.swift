/// The store is not what this version of the code wrote.
public enum StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    case missing(path: String)
    case corrupted(String)
    case newerSchema(found: Int, supported: Int)
    /// Another projector or a replay writes the store.
    case inUse(path: String)
    /// The folder the store is to be in does not exist.
    case noSuchFolder(String)
    /// The store file was removed or replaced under a running projector: its writes would go nowhere.
    case removed(String)
    /// The store file cannot be opened (permissions, a read-only file system).
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): "no store at \(path): a projector creates it (`recipes project` or `recipes serve`)"
        case .corrupted(let what): "the store is corrupted: \(what)"
        case .newerSchema(let found, let supported):
            "the store has schema version \(found), newer than this program's \(supported): upgrade recipes"
        case .inUse(let path):
            "\(path) is in use by another projector (recipes project, serve, dev or replay): stop it, or use another store"
        case .noSuchFolder(let folder): "no such folder \(folder): create it first, or give a store path in a folder that exists"
        case .cannotOpen(let path, let reason): "cannot open the store \(path): \(reason)"
        case .removed(let path): "the store \(path) was removed or replaced while in use: its writes would be lost"
        }
    }
}
