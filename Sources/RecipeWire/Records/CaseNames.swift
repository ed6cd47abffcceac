import RecipeJSON

// MARK: - Names of cases

/// The cases of a `String`-backed enum by the bytes of their names, for readers that
/// find a name in a record: looked up where it lies, it makes no String, where an
/// enum's `init(rawValue:)` compares Strings one after another.
struct CaseNames<Value: RawRepresentable & CaseIterable> where Value.RawValue == String {
    private let entries: [(name: [UInt8], value: Value)]

    init() {
        entries = Value.allCases.map { (Array($0.rawValue.utf8), $0) }
    }

    /// The case whose name is `name` exactly (case-sensitive), if any.
    func value(named name: UnsafeRawBufferPointer) -> Value? {
        for entry in entries where entry.name.withUnsafeBytes({ JSONScanner.same($0, name) }) {
            return entry.value
        }
        return nil
    }
}

extension CaseNames: Sendable where Value: Sendable {}
