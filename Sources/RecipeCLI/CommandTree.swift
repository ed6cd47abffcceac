import Foundation

/// A command of a program: one that runs, or a group of subcommands.
///
/// The program's table of these is the one place a command is registered: the
/// dispatcher, the groups' lists of commands and their usage lines all come from it.
public struct Command: Sendable {
    public enum Body: Sendable {
        case run(@Sendable ([String]) throws -> Void)
        case group([Command])
    }

    public var spec: CommandSpec
    public var body: Body

    public static func run(_ spec: CommandSpec, _ run: @escaping @Sendable ([String]) throws -> Void) -> Command {
        Command(spec: spec, body: .run(run))
    }

    /// A group: its usage line and its list of commands are made from `subcommands`.
    public static func group(_ name: String, summary: String, abstract: String? = nil, discussion: String = "",
                             _ subcommands: [Command]) -> Command {
        let words = subcommands.map(\.word)
        let width = (words.map(\.count).max() ?? 0) + 3
        let list = subcommands.map { "  " + $0.word.padding(toLength: width, withPad: " ", startingAt: 0) + $0.listing }
        let text = (["Commands:"] + list + ["", "Run `\(name) <command> --help` for a command's options."]).joined(separator: "\n")
        // Short lists are spelled out in the usage line; long ones are below it anyway.
        let arguments = words.count <= 6 ? "<\(words.joined(separator: "|"))>" : "<command>"
        let spec = CommandSpec(name: name, summary: summary, abstract: abstract, arguments: arguments,
                               discussion: discussion.isEmpty ? text : text + "\n" + discussion)
        return Command(spec: spec, body: .group(subcommands))
    }

    /// The word that selects it in its group: the last word of its name.
    public var word: String { String(spec.name.split(separator: " ").last ?? "") }

    var listing: String { spec.abstract ?? spec.summary }

    public var subcommands: [Command] {
        if case .group(let commands) = body { return commands }
        return []
    }
}

/// Runs a program's command table: finds the command, runs it, and turns what
/// it throws into one line on stderr (`PROGRAM: error: …`) and an exit status.
public enum CommandLineProgram {
    /// - Parameter exitStatus: the status of an error the program gives one of its own (nil: 1).
    public static func main(_ root: Command, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            exitStatus: (any Error) -> Int32? = { _ in nil }) -> Never {
        let program = root.spec.name
        let (run, rest) = find(root, in: arguments[...], program: program)
        do {
            try run(Array(rest))
            exit(0)
        } catch let help as HelpRequested {
            print(help.spec.help, terminator: "")
            exit(0)
        } catch let error as UsageError {
            fail(program, error.description, status: 2)
        } catch let error as CommandFailed {
            fail(program, error.description, status: error.status)
        } catch {
            fail(program, "\(error)", status: exitStatus(error) ?? 1)
        }
    }

    /// The command the words name, and the arguments after them; a group without
    /// a known command ends the process here.
    static func find(_ command: Command, in arguments: ArraySlice<String>, program: String)
        -> (@Sendable ([String]) throws -> Void, ArraySlice<String>) {
        let subcommands: [Command]
        switch command.body {
        case .run(let run): return (run, arguments)
        case .group(let commands): subcommands = commands
        }
        guard let word = arguments.first else {
            // A group alone is a mistake too, the same for every group: its help, on stderr.
            FileHandle.standardError.write(Data(command.spec.help.utf8))
            exit(2)
        }
        if word == "--help" || word == "help" {
            print(command.spec.help, terminator: "")
            exit(0)
        }
        if word.hasPrefix("--") {
            fail(program, "unknown option \(word): \(command.spec.name) needs a command first (see \(command.spec.name) --help)",
                 status: 2)
        }
        guard let next = subcommands.first(where: { $0.word == word }) else {
            let path = (command.spec.name.split(separator: " ").dropFirst().map(String.init) + [word]).joined(separator: " ")
            let hint = closest(to: word, in: subcommands.map(\.word)).map { "; did you mean \"\($0)\"?" } ?? ""
            fail(program, "unknown command \"\(path)\"\(hint) (see \(command.spec.name) --help)", status: 2)
        }
        return find(next, in: arguments.dropFirst(), program: program)
    }

    /// One line on stderr, however many lines the message had.
    public static func fail(_ program: String, _ message: String, status: Int32) -> Never {
        let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        FileHandle.standardError.write(Data("\(program): error: \(line)\n".utf8))
        exit(status)
    }

    /// The candidate nearest to a mistyped word, if it is near enough to be what was meant.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (candidate, distance) = scored, distance <= max(2, candidate.count / 3) else { return nil }
        return candidate
    }

    /// Insertions, deletions, substitutions and swaps of neighbours (`lsit` is 1 from `list`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = (0...a.count).map { i in (0...b.count).map { j in i == 0 ? j : (j == 0 ? i : 0) } }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}

/// Writes a line unbuffered, so it reaches a pipe while the process runs on.
public func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
