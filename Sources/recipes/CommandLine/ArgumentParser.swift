/// A command's description: what `--help` prints and what parsing accepts.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    var usage: String
    var options: [OptionSpec] = []
    /// Extra lines printed after the options (examples, notes).
    var discussion: String = ""

    var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !options.isEmpty {
            text += "\nOptions:\n"
            let width = options.map(\.label.count).max()! + 2
            for option in options + [OptionSpec.help] {
                let padding = String(repeating: " ", count: max(2, width - option.label.count + 2))
                var line = "  \(option.label)\(padding)\(option.help)"
                if let value = option.defaultValue { line += " (default: \(value))" }
                text += line + "\n"
            }
        }
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        return text
    }
}

/// One `--name [VALUE]` option.
struct OptionSpec: Sendable {
    var name: String
    /// nil for a flag that takes no value.
    var valueName: String?
    var help: String
    var defaultValue: String?

    static let help = OptionSpec(name: "help", valueName: nil, help: "Show this help.")

    static func value(_ name: String, _ valueName: String, _ help: String, default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, defaultValue: defaultValue)
    }

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    var label: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}

/// A mistake on the command line: printed as one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `--help` was given: print the command's help and exit 0.
struct HelpRequested: Error {
    let spec: CommandSpec
}

/// The options and positional arguments of one command line.
struct ParsedArguments {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    let spec: CommandSpec

    /// Accepts `--name value`, `--name=value` and `--flag`; `--` ends options.
    init(_ arguments: some Sequence<String>, spec: CommandSpec) throws {
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
    }

    func string(_ name: String) -> String? {
        values[name] ?? spec.options.first { $0.name == name }?.defaultValue
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text.replacingUnderscores()), range.contains(value) else {
            let bounds = range == Int.min...Int.max ? "an integer" : "an integer in \(range.lowerBound)…\(range.upperBound)"
            throw UsageError("--\(name) must be \(bounds), got \"\(text)\"")
        }
        return value
    }

    /// A duration given in seconds, decimals allowed (`0.25`).
    func seconds(_ name: String, in range: ClosedRange<Double>) throws -> Duration? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError("--\(name) must be a number of seconds in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
        }
        return .milliseconds(Int((value * 1000).rounded()))
    }

    /// Fails when positional arguments are given to a command that takes none.
    func expectNoPositionals() throws {
        if let first = positionals.first {
            throw UsageError("unexpected argument \"\(first)\" (see \(spec.name) --help)")
        }
    }
}

private extension String {
    /// Lets `1_000_000` be written on the command line as in Swift.
    func replacingUnderscores() -> String { filter { $0 != "_" } }
}
