import Foundation

/// Progress of long work on stderr (stdout stays for results): a bar redrawn
/// in place on a terminal, a plain line every few seconds otherwise (logs, CI).
final class ProgressReporter {
    private let label: String
    private let interactive = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    private var lastReport: ContinuousClock.Instant
    private let interval: Duration

    init(_ label: String, plainInterval: Duration = .seconds(5)) {
        self.label = label
        interval = plainInterval
        lastReport = start
    }

    /// Reports `done` of `total` records, if it is time to.
    func update(done: Int64, total: Int64) {
        let now = ContinuousClock.now
        guard now - lastReport >= (interactive ? .milliseconds(200) : interval) else { return }
        lastReport = now
        write(line(done: done, total: total), final: false)
    }

    /// The last report, always shown.
    func finish(done: Int64, total: Int64) {
        write(line(done: done, total: total), final: true)
    }

    private func line(done: Int64, total: Int64) -> String {
        let seconds = max((ContinuousClock.now - start).seconds, 0.001)
        let rate = Double(done) / seconds
        var text = "\(label) \(done)/\(total) records, \(Int(rate)) records/s"
        if total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let eta = rate > 0 ? Double(total - done) / rate : 0
            text += String(format: ", %.0f%%, ETA %.0f s", fraction * 100, max(0, eta))
            if interactive {
                let width = 24
                let filled = Int(fraction * Double(width))
                text = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + text
            }
        }
        return text
    }

    private func write(_ line: String, final: Bool) {
        let text = interactive ? "\r\u{1B}[K" + line + (final ? "\n" : "") : line + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
