import RecipeDomain
import RecipeJSON

// MARK: - Control characters in a record's strings

/// No string of a record holds a C0 control character but tab and newline: SQLite's
/// JSON functions and every C API end text at a NUL (a command id `a\u0000b` was `a` to
/// the store, a grant to `bob\u0000x` was `bob` to `json_each`), and the others are
/// invisible in every view. The scanner notes the first escape of one
/// (`JSONScanner.firstControlEscape`; unescaped, they are not JSON at all); this names
/// the field that holds it. Tab and newline are text (an instruction's lines); names
/// refuse them by their own forms (`RecordLimits`: the command id, `ActorName`).
extension AttributeReader {
    /// `invalid`, naming the field whose string holds the control character escaped at `offset`.
    func controlCharacterError(at offset: Int) -> WireError {
        let problem = "holds the control character \(Self.escapedCharacter(at: offset, in: tape.bytes)); "
            + "a record's strings hold none but tab and newline"
        guard let field = field(containing: offset) else {
            return WireError(.invalid, "A member name or an extension attribute \(problem).")
        }
        return .invalid(field, problem)
    }

    /// The path (`id`, `data.grantee`, `data.ingredients[2].note`) of the string at `offset`.
    private func field(containing offset: Int) -> String? {
        for name in Name.allCases {
            guard let index = attributes[name] else { continue }
            if let path = path(of: index, containing: offset, at: "\(name.spelling)") { return path }
        }
        return nil
    }

    private func path(of index: Int, containing offset: Int, at path: String) -> String? {
        let token = tape[index]
        guard token.start <= offset, offset < token.end else { return nil }
        var found: String?
        switch token.kind {
        case .string:
            return path
        case .object:
            tape.forEachMember(ofObject: index) { key, value in
                guard found == nil else { return }
                let keyToken = tape[key]
                if keyToken.start <= offset, offset < keyToken.end {
                    found = "\(path) (a member name)"
                } else {
                    found = self.path(of: value, containing: offset, at: "\(path).\(tape.text(key))")
                }
            }
        case .array:
            var position = 0
            tape.forEachElement(ofArray: index) { element in
                if found == nil { found = self.path(of: element, containing: offset, at: "\(path)[\(position)]") }
                position += 1
            }
        case .number, .bool, .null:
            return nil
        }
        return found
    }

    /// `U+0000` for the escape whose backslash is at `offset` (`\u0000`, `\b`, `\f`, `\r`).
    private static func escapedCharacter(at offset: Int, in bytes: UnsafeRawBufferPointer) -> String {
        var value: UInt32 = 0
        switch bytes[offset + 1] {
        case UInt8(ascii: "b"): value = 0x08
        case UInt8(ascii: "f"): value = 0x0C
        case UInt8(ascii: "r"): value = 0x0D
        default:
            for byte in bytes[(offset + 2)..<(offset + 6)] { value = value << 4 | UInt32(JSONScanner.hexValue(byte) ?? 0) }
        }
        return ActorName.codePoint(value)
    }
}
