import Testing
import Threads

@Suite("One lock, owned threads, values computed on a thread")
struct LockedTests {
    @Test("a waiter wakes when another thread makes its condition hold")
    func waiterWakes() throws {
        let box = Locked(0)
        let waiter = Background("a waiter for 3") { box.withLock(when: { $0 == 3 }) { value, ready in (value, ready) } }
        for _ in 0..<3 { box.withLock { $0 += 1 } }
        let (seen, ready) = try waiter.value(deadline: .seconds(10))
        #expect(ready && seen == 3)
    }

    @Test("a wait whose condition never holds ends at its deadline, saying so")
    func waitEndsAtDeadline() {
        let box = Locked(false)
        #expect(!box.wait(until: { $0 }, deadline: .now + .milliseconds(20)))
        box.withLock { $0 = true }
        #expect(box.wait(until: { $0 }, deadline: .now))
    }

    @Test("changes from many threads at once are none of them lost")
    func noLostChanges() throws {
        let count = Locked(0)
        let runs = (0..<8).map { index in Background("adder #\(index)") { for _ in 0..<10_000 { count.withLock { $0 += 1 } } } }
        for run in runs { try run.value(deadline: .seconds(30)) }
        #expect(count.withLock { $0 } == 80_000)
    }

    @Test("waking one waiter at a time still serves every item of a queue")
    func wakeOneServesAll() throws {
        let queue = Locked((items: [Int](), done: false))
        let served = Locked([Int]())
        let workers = (0..<4).map { index in
            OwnedThread(name: "worker \(index)") {
                while let item = queue.withLock(when: { !$0.items.isEmpty || $0.done }, { state, _ in state.items.popLast() }) {
                    served.withLock { $0.append(item) }
                }
            }
        }
        for item in 0..<1_000 { queue.withLock(wake: .one) { $0.items.append(item) } }
        #expect(served.wait(until: { $0.count == 1_000 }, deadline: .now + .seconds(30)))
        queue.withLock { $0.done = true }
        for worker in workers { #expect(worker.join(deadline: .now + .seconds(10))) }
        #expect(served.withLock { $0.sorted() } == Array(0..<1_000))
    }

    @Test("an owned thread is joined once its body returns, not before")
    func ownedThreadJoin() {
        let release = Locked(false)
        let thread = OwnedThread(name: "held") { release.wait(until: { $0 }) }
        #expect(!thread.join(deadline: .now + .milliseconds(20)))
        #expect(!thread.hasEnded)
        release.withLock { $0 = true }
        #expect(thread.join(deadline: .now + .seconds(10)))
        #expect(thread.hasEnded)
    }

    /// Something a thread owns, which says when it goes.
    final class Owned {
        let gone: Locked<Bool>
        init(gone: Locked<Bool>) { self.gone = gone }
        deinit { gone.withLock { $0 = true } }
    }

    @Test("what an owned thread's body held is released before join returns")
    func ownedThreadReleasesItsBody() {
        func started(_ gone: Locked<Bool>) -> OwnedThread {
            let owned = Owned(gone: gone)
            return OwnedThread(name: "owner") { withExtendedLifetime(owned) {} }
        }
        let gone = Locked(false)
        let thread = started(gone)
        #expect(thread.join(deadline: .now + .seconds(10)))
        #expect(gone.withLock { $0 })
    }

    struct Refused: Error {}

    @Test("a value computed on a thread: its result, its error, or a wait that timed out")
    func background() throws {
        #expect(try Background("forty-two") { 42 }.value() == 42)
        #expect(throws: Refused.self) { try Background("a refusal") { () throws -> Int in throw Refused() }.value() }
        let release = Locked(false)
        let held = Background("a held call") { release.wait(until: { $0 }) }
        #expect(throws: WaitTimedOut.self) { try held.value(deadline: .milliseconds(20)) }
        #expect(!held.isDone)
        release.withLock { $0 = true }
        #expect(try held.value(deadline: .seconds(10)))
        #expect(held.isDone)
    }
}
