import Threads
import Testing

@Suite("Work on two threads")
struct TwoThreadsTests {
    /// A partition's work: its records in order, and what folding them in order gives.
    struct Lane: Sendable, Equatable {
        var records: [Int]
        var folded: [Int] = []
        var visits = 0
    }

    static func lanes(_ sizes: [Int]) -> [Lane] {
        var next = 0
        return sizes.map { size in
            defer { next += size }
            return Lane(records: Array(next..<(next + size)))
        }
    }

    static func fold(_ lane: inout Lane) {
        lane.visits += 1
        // Each step depends on the one before: a record folded out of order changes the result.
        for record in lane.records { lane.folded.append((lane.folded.last ?? 1) &* 31 &+ record) }
    }

    @Test(arguments: [[5_000, 3, 700, 700, 1, 0, 2_000, 64], [10, 20, 30], [40_000], [300, 300], []])
    func eachElementIsChangedOnceInPlaceAsInOrder(sizes: [Int]) {
        var serial = Self.lanes(sizes)
        for index in serial.indices { Self.fold(&serial[index]) }
        var parallel = Self.lanes(sizes)
        TwoThreads.forEach(&parallel, weight: \.records.count) { Self.fold(&$0) }
        #expect(parallel == serial)
        #expect(parallel.allSatisfy { $0.visits == 1 })
    }

    @Test func mapKeepsTheOrderOfItsElements() {
        let elements = Array(0..<10_001)
        #expect(TwoThreads.map(elements) { $0 * 3 } == elements.map { $0 * 3 })
        #expect(TwoThreads.map(Array(0..<10)) { $0 + 1 } == Array(1...10))
    }
}
