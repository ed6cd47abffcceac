/// The store is not what this version of the code wrote.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    case missing(path: String)
    case corrupted(String)
    case newerSchema(found: Int, supported: Int)

    public var description: String {
        switch self {
        case .missing(let path): "no store at \(path): a projector creates it (`recipes project` or `recipes serve`)"
        case .corrupted(let what): "the store is corrupted: \(what)"
        case .newerSchema(let found, let supported):
            "the store has schema version \(found), newer than this program's \(supported): upgrade recipes"
        }
    }
}
