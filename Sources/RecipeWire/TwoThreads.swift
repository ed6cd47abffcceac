import Dispatch

/// Work split over two threads: the machines this runs on have two cores, and decoding
/// a poll's records is most of a reading thread's work while the thread that folds them
/// waits (`RecordSource`); deciding needs nothing of other partitions (`Decider`).
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

    /// Runs `body` on every element, in place, on two threads at once: each element wholly
    /// on one of them, dealt heaviest first to the thread with less `weight` so far (all on
    /// this thread when the total is under `minimum`). For work whose order matters only
    /// within an element, such as one partition's records. `body` must change nothing but
    /// its element.
    public static func forEach<Element: Sendable>(_ elements: inout [Element], minimum: Int = 256,
                                                  weight: (Element) -> Int, _ body: @Sendable (inout Element) -> Void) {
        let weights = elements.map(weight)
        guard elements.count > 1, weights.reduce(0, +) >= minimum else {
            for index in elements.indices { body(&elements[index]) }
            return
        }
        var lanes: [[Int]] = [[], []]
        var loads = [0, 0]
        for index in elements.indices.sorted(by: { weights[$0] > weights[$1] }) {
            let lane = loads[0] <= loads[1] ? 0 : 1
            lanes[lane].append(index)
            loads[lane] += weights[index]
        }
        elements.withUnsafeMutableBufferPointer { buffer in
            let job = InPlaceJob(elements: buffer.baseAddress!, lanes: lanes)
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                for index in job.lanes[lane] { body(&job.elements[index]) }
            }
        }
    }

    /// The input and the storage of the results: each thread reads and writes its own half,
    /// and both are done before either buffer goes.
    private struct Job<Element, Result>: @unchecked Sendable {
        let elements: UnsafeBufferPointer<Element>
        let results: UnsafeMutablePointer<Result>
    }

    /// Elements changed in place: each thread changes only the indexes of its lane, and both
    /// are done before the buffer goes.
    private struct InPlaceJob<Element>: @unchecked Sendable {
        let elements: UnsafeMutablePointer<Element>
        let lanes: [[Int]]
    }
}
