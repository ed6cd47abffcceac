import Dispatch

/// Work split over two threads: the machines this runs on have two cores, and decoding
/// a poll's records is most of a reading thread's work while the thread that folds them
/// waits (`RecordSource`); deciding needs nothing of other partitions (`Decider`).
public enum TwoThreads {
    /// `elements.map(transform)`, each half on a thread of its own when there are at least
    /// `minimum` (fewer are not worth the handover). `transform` runs on two threads at once:
    /// it must change nothing that the other half reads.
    // Inlinable, so that callers get it specialized: unspecialized, each result would come back
    // through a thunk that copies it and destroys the original.
    @inlinable
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

    @inlinable
    public static func map<Element, Result>(_ elements: [Element], minimum: Int = 256, _ transform: @Sendable (Element) -> Result) -> [Result] {
        elements.withUnsafeBufferPointer { map($0, minimum: minimum, transform) }
    }

    /// Runs `body` on every element, in place, on two threads at once: each element wholly
    /// on one of them, heaviest `weight` first, each thread taking the next element when it is
    /// done with its last (all on this thread when the total is under `minimum`). For work
    /// whose order matters only within an element, such as one partition's records. `body`
    /// must change nothing but its element.
    @inlinable
    public static func forEach<Element: Sendable>(_ elements: inout [Element], minimum: Int = 256,
                                                  weight: (Element) -> Int, _ body: @Sendable (inout Element) -> Void) {
        let weights = elements.map(weight)
        guard elements.count > 1, weights.reduce(0, +) >= minimum else {
            for index in elements.indices { body(&elements[index]) }
            return
        }
        // Taken as they come rather than dealt beforehand: weights are record counts, and a
        // partition's records cost what their commands do, so a lane dealt half the weight
        // could still finish well after the other, which waited.
        let order = elements.indices.sorted { weights[$0] > weights[$1] }
        elements.withUnsafeMutableBufferPointer { buffer in
            let job = TakenJob(elements: buffer.baseAddress!, order: order)
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                while let index = job.next() { body(&job.elements[index]) }
            }
        }
    }

    /// The input and the storage of the results: each thread reads and writes its own half,
    /// and both are done before either buffer goes.
    @usableFromInline
    struct Job<Element, Result>: @unchecked Sendable {
        @usableFromInline let elements: UnsafeBufferPointer<Element>
        @usableFromInline let results: UnsafeMutablePointer<Result>

        @usableFromInline
        init(elements: UnsafeBufferPointer<Element>, results: UnsafeMutablePointer<Result>) {
            (self.elements, self.results) = (elements, results)
        }
    }

    /// Elements changed in place, each taken by one thread (`next`), and both threads done
    /// before the buffer goes.
    @usableFromInline
    final class TakenJob<Element>: @unchecked Sendable {
        @usableFromInline let elements: UnsafeMutablePointer<Element>
        let order: [Int]
        /// Elements taken so far: a few dozen takes a call, so the one lock does.
        private let taken = Locked(0)

        @usableFromInline
        init(elements: UnsafeMutablePointer<Element>, order: [Int]) {
            self.elements = elements
            self.order = order
        }

        /// The next element's index, once to one thread; nil when all are taken.
        @usableFromInline
        func next() -> Int? {
            let position = taken.withLock { taken in
                defer { taken += 1 }
                return taken
            }
            return position < order.count ? order[position] : nil
        }
    }
}
