import Foundation

/// Any JSON value, read and written with Codable: JSON off the hot path (a
/// command body taken apart, the CloudEvent for it put together before the
/// record decoder checks it, a record's `data` shown by the audit tools, which
/// `data(ofRecord:)` reads with the records' scanner where it can). The
/// hand-written scanner and writer are for the log's hot path; this is not one.
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            // Integers stay integers: a revision or servings must not come back as 4.0.
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// A value built in Swift (`["servings": 4]`), or nil when part of it has no JSON form.
    public init?(_ value: any Sendable) {
        switch value {
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as Double where value.isFinite: self = .number(value)
        case let value as [any Sendable]:
            var items: [JSONValue] = []
            for item in value {
                guard let item = JSONValue(item) else { return nil }
                items.append(item)
            }
            self = .array(items)
        case let value as [String: any Sendable]:
            var members: [String: JSONValue] = [:]
            for (name, member) in value {
                guard let member = JSONValue(member) else { return nil }
                members[name] = member
            }
            self = .object(members)
        default: return nil
        }
    }
}
