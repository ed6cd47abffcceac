import CRdKafka
import Foundation
import Synchronization

/// A thread that serves a producer handle's callbacks by calling
/// `rd_kafka_poll` until stopped.
final class RDKafkaPollThread: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)

    init(client: RDKafkaClient, name: String) {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                rd_kafka_poll(client.handle, 50)
            }
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Returns once the thread has left its loop (at most one poll interval).
    func stop() {
        stopped.store(true, ordering: .releasing)
        exited.wait()
    }
}
