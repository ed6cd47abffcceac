import CRdKafka
import Foundation
import Synchronization

/// A thread that serves a producer handle's callbacks by calling
/// `rd_kafka_poll` until stopped.
final class RDKafkaPollThread: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)
    private let client: RDKafkaClient

    init(client: RDKafkaClient, name: String) {
        self.client = client
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                rd_kafka_poll(client.handle, 50)
            }
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Returns once the thread has left its loop.
    func stop() {
        stopped.store(true, ordering: .releasing)
        // Wakes the poll from its wait (`rd_kafka_poll` serves the main queue), or makes the next
        // return at once: without it every shutdown waited out up to a poll interval, 50 ms, a
        // tenth of what `recipes send --stdin` took for 200,000 lines.
        if let queue = rd_kafka_queue_get_main(client.handle) {
            rd_kafka_queue_yield(queue)
            rd_kafka_queue_destroy(queue)
        }
        exited.wait()
    }
}
