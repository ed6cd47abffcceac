import Foundation
// The tests' threads and waits are the code's own (Background, Locked, WaitTimedOut).
@_exported import Threads

// What the test suites share: running `recipes` and other programs, work on
// threads of its own, and waits on conditions with deadlines. Tests block, as the
// code they test does: nothing here is async (scripts/check-concurrency).

/// The `recipes` executable that `swift build --build-tests` built beside the tests.
public let recipesExecutable = builtExecutable("recipes")

/// The benchmarks' executable, built beside `recipes`.
public let recipesBenchExecutable = builtExecutable("recipes-bench")

private func builtExecutable(_ name: String) -> String {
    let tests = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    return tests.deletingLastPathComponent().appendingPathComponent(name).path
}

/// Blocks until `condition` holds, checking every millisecond, or throws naming `what` after `deadline`.
public func waitFor(_ what: String, deadline: Duration, _ condition: () throws -> Bool) throws {
    let end = ContinuousClock.now + deadline
    while try !condition() {
        guard ContinuousClock.now < end else { throw WaitTimedOut(description: "waited \(deadline) for \(what)") }
        Thread.sleep(forTimeInterval: 0.001)
    }
}

/// Runs `body(0..<count)` on `count` threads at once and returns their results in order;
/// throws the first error, or `WaitTimedOut` naming `what` when they are not all done by `deadline`.
public func inParallel<Value: Sendable>(_ count: Int, _ what: String, deadline: Duration = .seconds(30),
                                        _ body: @escaping @Sendable (Int) throws -> Value) throws -> [Value] {
    let runs = (0..<count).map { index in Background("\(what) #\(index)") { try body(index) } }
    let end = ContinuousClock.now + deadline
    return try runs.map { try $0.value(deadline: max(.zero, end - .now)) }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// How a finished program exited and what it printed.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var out: String
    public var err: String
}

/// Runs `recipes` to its end with `input` on stdin.
public func runRecipes(_ arguments: [String], input: String = "", deadline: Duration = .seconds(30)) throws -> ProcessRun {
    try runProcess(recipesExecutable, arguments, input: input, deadline: deadline)
}

/// Runs a program to its end with `input` on stdin; one still running after `deadline` is
/// killed, and that is an error naming it.
public func runProcess(_ executable: String, _ arguments: [String], input: String = "",
                       deadline: Duration = .seconds(30)) throws -> ProcessRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
    try process.run()
    let name = "\(URL(fileURLWithPath: executable).lastPathComponent) \(arguments.joined(separator: " "))"
    // Written and read at once: a full pipe either way would block the program.
    let written = Background("writing the input of \(name)") {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let out = Background("the output of \(name)") { readToEnd(stdout.fileHandleForReading) }
    let err = Background("the errors of \(name)") { readToEnd(stderr.fileHandleForReading) }
    let exited = Background("\(name) to exit") { process.waitUntilExit() }
    do {
        try exited.value(deadline: deadline)
    } catch {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw WaitTimedOut(description: "\(error); killed it. Its errors: \(String(decoding: (try? err.value()) ?? Data(), as: UTF8.self))")
    }
    _ = try? written.value()
    return ProcessRun(status: process.terminationStatus, out: String(decoding: try out.value(), as: UTF8.self),
                      err: String(decoding: try err.value(), as: UTF8.self))
}

/// Reads a pipe to its end. Foundation's `readDataToEndOfFile` traps when a signal
/// interrupts its read (EINTR, seen under load while other tests start and stop
/// processes); this read starts again instead.
public func readToEnd(_ handle: FileHandle) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count > 0 { data.append(contentsOf: buffer[..<count]); continue }
        if count < 0 && errno == EINTR { continue }
        return data
    }
}

/// A `recipes` process, not yet started, whose stderr goes to a file without a name,
/// so that a process that stops on its own can say why (`stderrOf`).
public func recipesProcess(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
    guard FileManager.default.isExecutableFile(atPath: recipesExecutable) else {
        throw WaitTimedOut(description: "\(recipesExecutable) is missing: build with `swift build --build-tests`")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: recipesExecutable)
    process.arguments = arguments
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: log)
    // Unlinked at once: the process writes to the open file, `stderrOf` reads it through the
    // handle, and nothing is left in the temporary directory once the handle goes.
    try FileManager.default.removeItem(at: log)
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    return process
}

/// The last lines a `recipesProcess` wrote to its standard error, librdkafka's log lines left out.
public func stderrOf(_ process: Process, lines: Int = 5) -> String {
    // Through the descriptor: the file has no name any more (`recipesProcess`).
    guard let handle = process.standardError as? FileHandle,
          let text = try? String(contentsOfFile: "/proc/self/fd/\(handle.fileDescriptor)", encoding: .utf8) else { return "(no log)" }
    return text.split(separator: "\n").filter { !$0.hasPrefix("%") }.suffix(lines).joined(separator: " | ")
}

/// Runs a script with the system Python (/usr/bin/python3, where Debian's python3-jsonschema
/// and python3-yaml are installed: `make test` installs them) and returns what it printed.
/// A failing script, or a missing Python, is an error, never a skip.
public func runSystemPython(_ script: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = readToEnd(output.fileHandleForReading)
    let errorText = String(decoding: readToEnd(errors.fileHandleForReading), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw PythonFailed(description: "/usr/bin/python3 exited with \(process.terminationStatus): \(errorText)")
    }
    return data
}

public struct PythonFailed: Error, CustomStringConvertible {
    public let description: String
}
