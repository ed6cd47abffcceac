import RecipeWire
import RecipeWriteSide

/// The write side's refusals, as the HTTP API answers them.
extension CommandInputError: HTTPResponseError {
    /// Not JSON: 400; a body over a limit: 413; JSON that breaks the command schema: 422.
    public var status: Int {
        switch self {
        case .notJSON: 400
        case .invalid(let error) where error.code == .tooLarge: 413
        case .invalid: 422
        }
    }
}

/// The embedded broker's log is nearly full: 507, the message says the ways out.
extension LogFull: HTTPResponseError {
    public var status: Int { 507 }
}
