import CRdKafka
import Threads

/// A thread that serves a producer handle's callbacks by calling
/// `rd_kafka_poll` until stopped.
final class RDKafkaPollThread: Sendable {
    private let stopped = Locked(false)
    private let thread: OwnedThread
    private let client: RDKafkaClient

    init(client: RDKafkaClient, name: String) {
        self.client = client
        let stopped = stopped
        thread = OwnedThread(name: name) {
            while !stopped.withLock({ $0 }) {
                // A report or an error returns at once, and `stop` wakes it: the wait only paces an idle
                // producer's wake-ups, which an idle `recipes dev` pays for each of its producers.
                rd_kafka_poll(client.handle, 1_000)
            }
        }
    }

    /// Returns once the thread has left its loop.
    func stop() {
        stopped.withLock { $0 = true }
        // Wakes the poll from its wait (`rd_kafka_poll` serves the main queue), or makes the next
        // return at once: without it every shutdown would wait out up to a poll interval.
        if let queue = rd_kafka_queue_get_main(client.handle) {
            rd_kafka_queue_yield(queue)
            rd_kafka_queue_destroy(queue)
        }
        thread.join()
    }
}
