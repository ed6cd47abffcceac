/// A command's description: what `--help` prints and what parsing accepts.
///
/// The usage line is made from `arguments` and `options`, so that it lists
/// every option the parser accepts and cannot drift from them.
public struct CommandSpec: Sendable {
    /// The whole command line that runs it, e.g. `recipes audit diff`.
    public var name: String
    /// The opening line of its help.
    public var summary: String
    /// Its line in the parent's list of commands (the summary when nil).
    public var abstract: String?
    /// The positional arguments as the usage line shows them, e.g. `ID`.
    public var arguments: String
    public var options: [OptionSpec]
    /// Extra lines printed after the options (examples, notes).
    public var discussion: String

    public init(name: String, summary: String, abstract: String? = nil, arguments: String = "",
                options: [OptionSpec] = [], discussion: String = "") {
        self.name = name
        self.summary = summary
        self.abstract = abstract
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }

    /// `name`, the arguments, then every option: required ones bare, optional ones
    /// in brackets, alternatives joined by `|`.
    public var usage: String {
        var words = [name]
        if !arguments.isEmpty { words.append(arguments) }
        var shownGroups: Set<String> = []
        for option in options {
            guard let group = option.alternatives else {
                words.append(option.isRequired ? option.label : "[\(option.label)]")
                continue
            }
            guard shownGroups.insert(group).inserted else { continue }
            let members = options.filter { $0.alternatives == group }
            let joined = members.map(\.label).joined(separator: " | ")
            words.append(members.contains(where: \.isRequired) ? "(\(joined))" : "[\(joined)]")
        }
        return words.joined(separator: " ")
    }

    public var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !options.isEmpty {
            text += "\nOptions:\n"
            let listed = options + [OptionSpec.help]
            let width = listed.map(\.label.count).max()! + 2
            for option in listed {
                let padding = String(repeating: " ", count: max(2, width - option.label.count))
                var line = "  \(option.label)\(padding)\(option.help)"
                if let value = option.defaultValue, !value.isEmpty { line += " (default: \(value))" }
                text += line + "\n"
            }
        }
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        return text
    }
}

/// One `--name [VALUE]` option.
public struct OptionSpec: Sendable {
    public var name: String
    /// nil for a flag that takes no value.
    public var valueName: String?
    public var help: String
    public var defaultValue: String?
    /// Shown without brackets in the usage line: the command fails without it.
    public var isRequired: Bool
    /// Options with the same tag exclude each other: the usage line shows them as `a | b`.
    public var alternatives: String?

    public static let help = OptionSpec(name: "help", valueName: nil, help: "Show this help.", defaultValue: nil,
                                        isRequired: false, alternatives: nil)

    public static func value(_ name: String, _ valueName: String, _ help: String, default defaultValue: String? = nil,
                             required: Bool = false, alternatives: String? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, defaultValue: defaultValue, isRequired: required,
                   alternatives: alternatives)
    }

    public static func flag(_ name: String, _ help: String, alternatives: String? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, defaultValue: nil, isRequired: false, alternatives: alternatives)
    }

    public var label: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}

/// A mistake on the command line: printed as one line, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A failure with an exit status of its own (e.g. 2 for "could not compare"
/// where 1 means "differs"): printed as one line.
public struct CommandFailed: Error, CustomStringConvertible {
    public let status: Int32
    public let description: String
    public init(status: Int32, _ description: String) {
        self.status = status
        self.description = description
    }
}

/// `--help` was given: print the command's help and exit 0.
public struct HelpRequested: Error {
    public let spec: CommandSpec
    public init(spec: CommandSpec) { self.spec = spec }
}

/// The options and positional arguments of one command line.
public struct ParsedArguments {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []
    public let spec: CommandSpec

    /// Accepts `--name value`, `--name=value` and `--flag`; `--` ends options.
    /// Options that exclude each other (same `alternatives` tag) fail together.
    public init(_ arguments: some Sequence<String>, spec: CommandSpec) throws {
        self.spec = spec
        var iterator = arguments.makeIterator()
        var optionsEnded = false
        while let argument = iterator.next() {
            guard !optionsEnded, argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "help" { throw HelpRequested(spec: spec) }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option --\(name) (see \(spec.name) --help)")
            }
            if option.valueName == nil {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if let value = inlineValue ?? iterator.next() {
                values[name] = value
            } else {
                throw UsageError("--\(name) needs a value: \(option.label)")
            }
        }
        for group in Set(spec.options.compactMap(\.alternatives)) {
            let given = spec.options.filter { $0.alternatives == group && (values[$0.name] != nil || flags.contains($0.name)) }
            if given.count > 1 {
                throw UsageError("give one of \(given.map { "--\($0.name)" }.joined(separator: " or ")), not both")
            }
        }
    }

    public func string(_ name: String) -> String? {
        values[name] ?? spec.options.first { $0.name == name }?.defaultValue
    }

    /// The value of a required option, or a usage error naming it.
    public func required(_ name: String, _ why: String = "") throws -> String {
        guard let value = values[name] else {
            let label = spec.options.first { $0.name == name }?.label ?? "--\(name)"
            throw UsageError("\(label) is required\(why.isEmpty ? "" : ": \(why)")")
        }
        return value
    }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    public func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text.replacingUnderscores()), range.contains(value) else {
            let bounds = range == Int.min...Int.max ? "an integer" : "an integer in \(range.lowerBound)…\(range.upperBound)"
            throw UsageError("--\(name) must be \(bounds), got \"\(text)\"")
        }
        return value
    }

    /// A duration given in seconds, decimals allowed (`0.25`).
    public func seconds(_ name: String, in range: ClosedRange<Double>) throws -> Duration? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError("--\(name) must be a number of seconds in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
        }
        return .milliseconds(Int((value * 1000).rounded()))
    }

    /// Fails when positional arguments are given to a command that takes none.
    public func expectNoPositionals() throws {
        if let first = positionals.first {
            throw UsageError("unexpected argument \"\(first)\" (see \(spec.name) --help)")
        }
    }
}

private extension String {
    /// Lets `1_000_000` be written on the command line as in Swift.
    func replacingUnderscores() -> String { filter { $0 != "_" } }
}
