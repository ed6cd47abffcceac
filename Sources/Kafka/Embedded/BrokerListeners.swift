import Glibc

/// The listening sockets of the mock brokers, found among this process's descriptors by
/// their ports (librdkafka 2.0.2 hands them to no one).
enum BrokerListeners {
    /// Turns off Nagle's algorithm on this process's listening sockets bound to `ports`; Linux
    /// copies the option to every connection they accept from then on.
    ///
    /// Why: the mock answers on sockets that hold back a small write while an earlier one is not
    /// yet acknowledged, and a client that is waiting for that very answer sends nothing that would
    /// carry the acknowledgement, so the kernel delays it 40 ms. With requests in flight together
    /// on a connection, the decider's producer waited 44 ms for its decisions whenever the timing
    /// lined up, and 16 clients' append → visible took 44 ms instead of 10 (docs/benchmarks.md,
    /// "Issue 50, session 50: append → visible"). Kafka's own brokers set TCP_NODELAY on every
    /// connection they accept.
    static func disableNagle(ports: Set<UInt16>) {
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name) { descriptors.append(fd) }
        }
        for fd in descriptors where isListener(fd, onAnyOf: ports) {
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Whether `fd` is an IPv4 TCP socket listening on one of `ports`.
    private static func isListener(_ fd: Int32, onAnyOf ports: Set<UInt16>) -> Bool {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0, address.sin_family == sa_family_t(AF_INET), ports.contains(UInt16(bigEndian: address.sin_port)) else {
            return false
        }
        var listening: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0 && listening == 1
    }

    /// The ports of `host:port,…`.
    static func ports(of bootstrapServers: String) -> Set<UInt16> {
        Set(bootstrapServers.split(separator: ",").compactMap { $0.split(separator: ":").last.flatMap { UInt16($0) } })
    }
}
