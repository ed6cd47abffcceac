import Dispatch

/// Work split over two threads: the machines this runs on have two cores, and decoding
/// or encoding a poll's records is most of a reading thread's work while the thread that
/// folds or decides them waits (`RecordSource`, `Decider`).
public enum TwoThreads {
    /// `elements.map(transform)`, each half on a thread of its own when there are at least
    /// `minimum` (fewer are not worth the handover). `transform` runs on two threads at once:
    /// it must change nothing that the other half reads.
    public static func map<Element, Result>(_ elements: UnsafeBufferPointer<Element>, minimum: Int = 256,
                                            _ transform: @Sendable (Element) -> Result) -> [Result] {
        guard elements.count >= minimum else { return elements.map(transform) }
        return [Result](unsafeUninitializedCapacity: elements.count) { buffer, initialized in
            let job = Job(elements: elements, results: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                let half = job.elements.count / 2
                for index in part == 0 ? 0..<half : half..<job.elements.count {
                    (job.results + index).initialize(to: transform(job.elements[index]))
                }
            }
            initialized = elements.count
        }
    }

    public static func map<Element, Result>(_ elements: [Element], minimum: Int = 256, _ transform: @Sendable (Element) -> Result) -> [Result] {
        elements.withUnsafeBufferPointer { map($0, minimum: minimum, transform) }
    }

    /// The input and the storage of the results: each thread reads and writes its own half,
    /// and both are done before either buffer goes.
    private struct Job<Element, Result>: @unchecked Sendable {
        let elements: UnsafeBufferPointer<Element>
        let results: UnsafeMutablePointer<Result>
    }
}
