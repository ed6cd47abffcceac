import Foundation
import RecipeCLI
import RecipeHTTP
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// The subscribers of one phase of `recipes-bench streams`, in a process of their own
/// (`recipes-bench streams --subscribers-of PORT,PATH,N`): the service's process and this one each
/// hold one end of every stream, under each one's open-file limit. One line each way on its
/// standard input and output: it says `ready` once every stream has caught up; `wait K START`
/// (START in CLOCK_MONOTONIC ns) answers `ok` once every stream got its Kth decision, keeping
/// each one's latency from START; `report` answers `report p50 p99 max events cpu` (seconds) of
/// the latencies kept since the last report, and its own CPU over them; end of input closes it.
final class StreamSubscribersProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    init(port: UInt16, path: String, count: Int, readerThreads: Int) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["streams", "--subscribers-of", "\(port),\(path),\(count)", "--reader-threads", String(readerThreads)]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line, which must start with `word`; what follows it.
    @discardableResult
    func expect(_ word: String) throws -> String {
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 1)
                guard line == word || line.hasPrefix(word + " ") else { throw BenchmarkError("the subscribers' process: \(line)") }
                return String(line.dropFirst(word.count)).trimmingCharacters(in: .whitespaces)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw BenchmarkError("the subscribers' process ended (status \(process.isRunning ? 0 : process.terminationStatus))") }
            buffer += chunk[0..<n]
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The subscribers' side: `phase` is PORT,PATH,N.
    static func serve(_ phase: String, readerThreads: Int) throws {
        let parts = phase.split(separator: ",", maxSplits: 2).map(String.init)
        guard parts.count == 3, let port = UInt16(parts[0]), let count = Int(parts[2]) else {
            throw UsageError("--subscribers-of: PORT,PATH,N")
        }
        guard HTTPServer.connectionCapacity() + HTTPServer.reservedFiles >= count + 64 else {
            throw BenchmarkError("the open-file limit is too low for \(count) streams")
        }
        let subscribers = try StreamSubscribers(port: port, path: parts[1], count: count, threads: readerThreads)
        defer { subscribers.close() }
        guard subscribers.waitCaughtUp(deadline: .now + .seconds(300)) else {
            let state = subscribers.progress.withLock { ($0.caughtUp, $0.closed) }
            say("failed: \(state.0) of \(count) streams caught up, \(state.1) closed by the server")
            return
        }
        say("ready")
        var latencies: [Double] = []
        var cpuStart = AppendBenchmark.cpuSeconds().own
        while let line = readLine() {
            let words = line.split(separator: " ")
            if words.first == "wait", words.count == 3, let decisions = Int(words[1]), let start = UInt64(words[2]) {
                guard subscribers.waitDecisions(decisions, deadline: .now + .seconds(60)) else {
                    let got = subscribers.progress.withLock { $0.arrivals.count >= decisions ? $0.arrivals[decisions - 1].count : 0 }
                    say("failed: decision \(decisions) reached \(got) of \(count) streams in 60 s")
                    return
                }
                let arrivals = subscribers.progress.withLock { $0.arrivals[decisions - 1] }
                latencies += arrivals.map { Double(Int64(bitPattern: $0 &- start)) / 1e9 }
                say("ok")
            } else if words.first == "report" {
                latencies.sort()
                let cpu = AppendBenchmark.cpuSeconds().own - cpuStart
                say("report \(HTTPBenchmark.percentile(latencies, 0.5)) \(HTTPBenchmark.percentile(latencies, 0.99)) \(latencies.last ?? 0) \(latencies.count) \(cpu)")
                latencies = []
                cpuStart = AppendBenchmark.cpuSeconds().own
            } else {
                say("failed: unknown line \(line)")
                return
            }
        }
    }
}
