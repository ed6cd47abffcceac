import Kafka
import RecipeDomain
import RecipeWire

/// What `recipes send --stdin` does with its lines: each line is validated
/// (`CommandBuilder`, i.e. the record decoder) and the valid ones appended in
/// order; a bad line is reported with its number and the rest still go.
public struct CommandSender: Sendable {
    public enum Outcome: Sendable, Equatable {
        case appended(line: Int, position: String, commandID: String, recipeID: String)
        case failed(line: Int, message: String)

        public var line: Int {
            switch self {
            case .appended(let line, _, _, _), .failed(let line, _): line
            }
        }
    }

    public let appender: CommandAppender
    public let builder: CommandBuilder

    public init(appender: CommandAppender, source: String = "recipes-cli") {
        self.appender = appender
        self.builder = CommandBuilder(source: source)
    }

    /// Sends numbered lines (1-based numbers as given); blank lines are skipped.
    /// Lines without their own actor (not whole CloudEvents) are written by `actor`.
    public func send(_ lines: [(number: Int, text: String)], actor: String) async -> [Outcome] {
        var outcomes: [Outcome] = []
        var pending: [(line: Int, record: DecodedRecord)] = []
        for (number, text) in lines where !text.allSatisfy(\.isWhitespace) {
            do {
                pending.append((number, try builder.envelope(line: text, actor: actor)))
            } catch {
                outcomes.append(.failed(line: number, message: error.description))
            }
        }
        let results = await appender.append(pending.map { ($0.record.envelope, $0.record.source) })
        for (item, result) in zip(pending, results) {
            switch result {
            case .success(let report):
                outcomes.append(.appended(line: item.line, position: report.description,
                                          commandID: item.record.envelope.commandID, recipeID: item.record.envelope.recipeID))
            case .failure(let error):
                outcomes.append(.failed(line: item.line, message: "not appended: \(error)"))
            }
        }
        return outcomes.sorted { $0.line < $1.line }
    }
}
