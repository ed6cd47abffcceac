import Foundation
import RecipeProcess
import RecipeTestSupport
import Kafka
import RecipeDecisions
import RecipeHTTP
import RecipeProjection
import RecipeWire
import Testing
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// An embedded cluster, a store and a `RecipeService` on a free loopback port.
final class ServiceFixture: Sendable {
    let kafka: EmbeddedKafka
    let service: RecipeService
    let storePath: String
    let topic = RecipeTopics().edits

    /// The service runs a decider of every partition, as `recipes dev` does, unless `decides` is
    /// false (a test that runs deciders of its own); the decisions and committed topics are made
    /// beside the edits topic.
    init(api: RecipeAPI.Options = RecipeAPI.Options(), server: HTTPServer.Limits = HTTPServer.Limits(), decides: Bool = true) throws {
        kafka = try EmbeddedKafka(brokers: 1)
        try kafka.createTopic(topic, partitions: 4)
        for name in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(name, partitions: 4) }
        storePath = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString).db").path
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topics: RecipeTopics(),
                                            storePath: storePath)
        options.port = 0
        options.fetchWaitMilliseconds = 10
        options.api = api
        options.server = server
        if !decides { options.decider = nil }
        service = try RecipeService(options: options)
        try service.start()
    }

    /// The store goes with the fixture, so that a run of the suite leaves no stores behind.
    /// The service is shut down first: a projector still running finds its store removed and
    /// makes a new one, as it should for an operator who removed it (a suite left dozens).
    deinit {
        service.shutdown()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
    }

    var port: UInt16 { service.port }

    func request(_ method: String, _ path: String, json: String? = nil, body: [UInt8]? = nil,
                 headers: [String: String] = [:]) throws -> HTTPResult {
        try HTTPClient.request(port: port, method: method, path: path, headers: headers,
                                     body: body ?? json.map { Array($0.utf8) })
    }

    func get(_ path: String, headers: [String: String] = [:]) throws -> HTTPResult {
        try request("GET", path, headers: headers)
    }

    func post(_ path: String, _ json: String, headers: [String: String] = [:]) throws -> HTTPResult {
        try request("POST", path, json: json, headers: headers)
    }

    /// POST /v1/drafts?wait=true: a new recipe's id.
    func newRecipe(headers: [String: String] = [:]) throws -> String {
        let response = try post("/v1/drafts?wait=true", "", headers: headers)
        try #require(response.status == 200, "\(response.text)")
        return try #require(response.object["recipeId"] as? String)
    }

    /// POSTs a command and returns the receipt.
    @discardableResult
    func command(_ recipe: String, _ json: String, wait: Bool = false, headers: [String: String] = [:]) throws -> [String: Any] {
        let response = try post("/v1/recipes/\(recipe)/commands\(wait ? "?wait=true" : "")", json, headers: headers)
        try #require(response.status == (wait ? 200 : 202), "\(response.status) \(response.text)")
        return response.object
    }

    /// A saved recipe with a title, servings, an ingredient and a tag; returns its id and the save's position.
    func savedRecipe(title: String, tag: String = "@dinner") throws -> (id: String, position: String) {
        let id = try newRecipe()
        try command(id, #"{"type":"TitleChanged","data":{"title":"\#(title)"}}"#)
        try command(id, #"{"type":"ServingsChanged","data":{"servings":4}}"#)
        try command(id, #"{"type":"IngredientAdded","data":{"name":"Flour","amount":250,"unit":"g"}}"#)
        try command(id, #"{"type":"TagAdded","data":{"text":"\#(tag)"}}"#)
        let saved = try command(id, #"{"type":"RecipeSaved","data":{}}"#)
        return (id, try #require(saved["position"] as? String))
    }
}

/// The service most tests share (they use recipes of their own). It lives as long as the
/// test process, so its store is removed as the process exits.
let shared: ServiceFixture = {
    do {
        let fixture = try ServiceFixture()
        sharedStorePath.withLock { $0 = fixture.storePath }
        atexit {
            guard let path = sharedStorePath.withLock({ $0 }) else { return }
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        }
        return fixture
    } catch {
        fatalError("cannot start the test service: \(error)")
    }
}()

private let sharedStorePath = Locked<String?>(nil)

struct HTTPResult: @unchecked Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
    var errorField: String? { (object["error"] as? [String: Any])?["field"] as? String }
    /// The `items` of a successful answer; any other (an error's body has none) throws, naming what came.
    var items: [[String: Any]] {
        get throws {
            guard (200..<300).contains(status), let items = object["items"] as? [[String: Any]] else {
                throw HTTPClient.ClientError(description: "an answer without items: \(status) \(text.prefix(300))")
            }
            return items
        }
    }
}

/// A tiny HTTP/1.1 client on a blocking socket (Connection: close); an answer that does
/// not come within 20 s is an error.
enum HTTPClient {
    static func request(port: UInt16, method: String, path: String, headers: [String: String] = [:],
                        body: [UInt8]?) throws -> HTTPResult {
        try send(port: port, method: method, path: path, headers: headers, body: body)
    }

    struct ClientError: Error, CustomStringConvertible {
        var description: String
    }

    static func send(port: UInt16, method: String, path: String, headers: [String: String], body: [UInt8]?) throws -> HTTPResult {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ClientError(description: "connect failed: \(errno)") }
        var head = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body {
            head += "Content-Length: \(body.count)\r\n"
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) { head += "Content-Type: application/json\r\n" }
        }
        head += "\r\n"
        var bytes = Array(head.utf8) + (body ?? [])
        var sent = 0
        while sent < bytes.count {
            // No SIGPIPE: a server that refuses a body it will not read (413) closes while it is sent;
            // its answer is read below.
            let n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EPIPE || errno == ECONNRESET { break }
            guard n > 0 else { throw ClientError(description: "write failed: \(errno)") }
            sent += n
        }
        bytes = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { throw ClientError(description: "no answer to \(method) \(path) (read failed: errno \(errno))") }
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        guard let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw ClientError(description: "no response head in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ClientError(description: "bad status line \(lines[0])") }
        var responseHeaders: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            responseHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var responseBody = Array(bytes[split.upperBound...])
        if let length = responseHeaders["content-length"].flatMap(Int.init), length < responseBody.count {
            responseBody = Array(responseBody[..<length])
        }
        return HTTPResult(status: status, headers: responseHeaders, body: responseBody)
    }
}

/// A long-running `recipes` process (`broker`, `serve`) whose stdout lines the test can wait for.
final class RecipesProcess: Sendable {
    private let process: Process
    /// stdout and stderr so far; its own object, so that the pipes' handlers do not keep `self` alive.
    private let output = Output()

    private final class Output: Sendable {
        let texts = Locked(["", ""])
    }

    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: recipesExecutable)
        process.arguments = arguments
        let pipes = [Pipe(), Pipe()]
        process.standardOutput = pipes[0]
        process.standardError = pipes[1]
        // Drained as it comes, so a full pipe never blocks the process.
        for (index, pipe) in pipes.enumerated() {
            pipe.fileHandleForReading.readabilityHandler = { [output] handle in
                let data = handle.availableData
                // End of file: stop, or the handler is called again and again.
                guard !data.isEmpty else { handle.readabilityHandler = nil; return }
                output.texts.withLock { $0[index] += String(decoding: data, as: UTF8.self) }
            }
        }
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    /// The exit status, once it has exited.
    var status: Int32 { process.terminationStatus }
    var out: String { output.texts.withLock { $0[0] } }
    var err: String { output.texts.withLock { $0[1] } }

    /// The rest of the first stdout line that starts with `prefix`, once it is printed.
    func line(startingWith prefix: String, deadline: Duration = .seconds(30)) throws -> String {
        var found: Substring?
        do {
            try waitFor("a line \"\(prefix)…\" from recipes \(process.arguments ?? [])", deadline: deadline) {
                let lines = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()  // the last may be partial
                found = lines.first { $0.hasPrefix(prefix) }
                return found != nil || !process.isRunning
            }
        } catch {
            throw HTTPClient.ClientError(description: "\(error); out: \(out) err: \(err)")
        }
        guard let found else {
            throw HTTPClient.ClientError(description: "recipes \(process.arguments ?? []) exited without a line \"\(prefix)…\"; out: \(out) err: \(err)")
        }
        return String(found.dropFirst(prefix.count))
    }

    /// Sends SIGTERM and waits for the exit; its status, or nil when it did not exit by the deadline.
    func stop(deadline: Duration = .seconds(30)) -> Int32? {
        process.terminate()
        guard (try? waitFor("recipes to exit", deadline: deadline) { !process.isRunning }) != nil else { return nil }
        return process.terminationStatus
    }
}
