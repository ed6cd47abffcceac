import Foundation

// What the test suites share: running `recipes` and other programs, and
// waiting on conditions off the cooperative pool.

/// The `recipes` executable that `swift build --build-tests` built beside the tests.
public let recipesExecutable = builtExecutable("recipes")

/// The benchmarks' executable, built beside `recipes`.
public let recipesBenchExecutable = builtExecutable("recipes-bench")

private func builtExecutable(_ name: String) -> String {
    let tests = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    return tests.deletingLastPathComponent().appendingPathComponent(name).path
}

/// Runs blocking work on a thread of its own, so that tests running in
/// parallel never starve the cooperative pool they all share.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Blocks until `condition` holds, checking every millisecond, or throws after `deadline`.
public func waitFor(_ what: String, deadline: Duration, _ condition: () -> Bool) throws {
    let end = ContinuousClock.now + deadline
    while !condition() {
        guard ContinuousClock.now < end else { throw WaitTimedOut(description: "waited \(deadline) for \(what)") }
        Thread.sleep(forTimeInterval: 0.001)
    }
}

/// How a finished program exited and what it printed.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var out: String
    public var err: String
}

/// Runs `recipes` to its end with `input` on stdin.
public func runRecipes(_ arguments: [String], input: String = "") async throws -> ProcessRun {
    try await runProcess(recipesExecutable, arguments, input: input)
}

/// Runs a program to its end with `input` on stdin, on a thread of its own.
public func runProcess(_ executable: String, _ arguments: [String], input: String = "") async throws -> ProcessRun {
    try await onThread {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Both pipes are drained at once: a full one would block the program.
        let err = Drained(stderr.fileHandleForReading)
        let out = readToEnd(stdout.fileHandleForReading)
        process.waitUntilExit()
        return ProcessRun(status: process.terminationStatus, out: String(decoding: out, as: UTF8.self),
                          err: String(decoding: err.data(), as: UTF8.self))
    }
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

/// Reads a pipe to its end on a thread of its own.
private final class Drained: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes = Data()

    init(_ handle: FileHandle) {
        Thread { [self] in
            bytes = readToEnd(handle)
            done.signal()
        }.start()
    }

    func data() -> Data {
        done.wait()
        return bytes
    }
}

/// A `recipes` process, not yet started, whose stderr goes to a file kept so
/// that a process that stops on its own can say why (`stderrOf`).
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
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    return process
}

/// The last lines a `recipesProcess` wrote to its standard error, librdkafka's log lines left out.
public func stderrOf(_ process: Process, lines: Int = 5) -> String {
    guard let handle = process.standardError as? FileHandle,
          let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(handle.fileDescriptor)")),
          let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "(no log)" }
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
