import RecipeGenerators
import RecipeJSON
import Testing

@Suite("JSON numbers and strings")
struct JSONPartsTests {
    /// The records' caps (RecipeWire's `WireFormat`), as the decoders pass them.
    let maxDepth = 32
    let largestRecord = 2 * 1024 * 1024

    func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func double(_ text: String) -> Double {
        var text = text
        return text.withUTF8 { JSONNumber.double(UnsafeRawBufferPointer($0)) }
    }

    func integer(_ text: String) -> JSONNumber.IntegerValue {
        var text = text
        let plain = !text.contains(where: { ".eE".contains($0) })
        return text.withUTF8 { JSONNumber.integer(UnsafeRawBufferPointer($0), isPlainInteger: plain) }
    }

    @Test func doublesAreCorrectlyRounded() {
        var random = SplitMix64(seed: 1)
        var texts = ["0", "-0", "250", "0.5", "1.2345", "0.1", "1e-7", "2.5e2", "1E+2", "123456789012345678901234567890",
                     "0.30000000000000004", "9007199254740993", "4.9e-324", "2.2250738585072011e-308", "1.7976931348623157e308",
                     "0.000000000000000000000000000001", "1e23", "8.41e21", "1448997445238699"]
        for _ in 0..<2000 {
            texts.append(String(Double(bitPattern: random.next() & ~(1 << 63)).description))
            texts.append("\(random.int(in: 0...999_999)).\(random.int(in: 0...999_999))e\(random.int(in: -30...30))")
        }
        for text in texts where !text.contains("inf") && !text.contains("nan") {
            let expected = Double(text)!
            #expect(double(text).bitPattern == expected.bitPattern, "\(text)")
        }
        #expect(double("1e999") == .infinity)
        #expect(double("-1e999") == -.infinity)
        #expect(double("-0").sign == .minus)
    }

    @Test func integersFollowJSONSchema() {
        #expect(integer("42") == .value(42))
        #expect(integer("-7") == .value(-7))
        #expect(integer("4.0") == .value(4))
        #expect(integer("4e2") == .value(400))
        #expect(integer("2.5") == .notInteger)
        #expect(integer("9007199254740991") == .value(9_007_199_254_740_991))
        #expect(integer("9007199254740992") == .outOfRange)
        #expect(integer("99999999999999999999") == .outOfRange)
        #expect(integer("1e999") == .outOfRange)
    }

    @Test func stringsAreEscapedOneWay() {
        var writer = JSONWriter(capacity: 0)
        writer.string("a\"b\\c/d\u{0}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é🍰\u{2028}")
        #expect(string(writer.bytes) == #""a\"b\\c/d\u0000\b\t\n\f\r\u001f"# + "\u{7F}é🍰\u{2028}\"")
    }

    /// Strings are written and scanned eight bytes at a time until a byte needs a look of
    /// its own: put each kind of such byte at every position of strings around
    /// that width, compare with escaping one character at a time, and read it back.
    @Test func specialCharactersAreHandledAtEveryPosition() throws {
        func escapedOneByOne(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += #"\""#
                case "\\": out += #"\\"#
                case "\u{8}": out += #"\b"#
                case "\t": out += #"\t"#
                case "\n": out += #"\n"#
                case "\u{C}": out += #"\f"#
                case "\r": out += #"\r"#
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        for special in ["\"", "\\", "\u{0}", "\u{1F}", "\n", "\u{7F}", "/", "é", "🍰", "\u{2028}"] {
            for length in 1...20 {
                for position in 0..<length {
                    let text = String(repeating: "a", count: position) + special + String(repeating: "b", count: length - position - 1)
                    var writer = JSONWriter(capacity: 0)
                    writer.string(text)
                    let written = string(writer.bytes)
                    #expect(written == escapedOneByOne(text), "\(text.debugDescription)")
                    let read = try writer.bytes.withUnsafeBytes { bytes in
                        var scanner = JSONScanner(bytes, maxNestingDepth: maxDepth)
                        var tape = JSONTapeWriter(capacity: 4)
                        return tape[try scanner.value(depth: 0, onto: &tape)].text(in: bytes)
                    }
                    #expect(read == text, "\(text.debugDescription) read back")
                }
            }
        }
    }

    @Test func rawControlBytesAndBadUTF8AreRefusedAtEveryPosition() {
        for bad: [UInt8] in [[0x01], [0x1F], [0x0A], [0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80]] {
            for length in 1...20 {
                for position in 0..<length {
                    let json = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: position) + bad
                        + Array(repeating: UInt8(ascii: "b"), count: length - position - 1) + [UInt8(ascii: "\"")]
                    let refused = json.withUnsafeBytes { bytes in
                        var scanner = JSONScanner(bytes, maxNestingDepth: maxDepth)
                        var tape = JSONTapeWriter(capacity: 4)
                        return (try? scanner.value(depth: 0, onto: &tape)) == nil
                    }
                    #expect(refused, "\(bad) at \(position) of \(length)")
                }
            }
        }
    }

    @Test func numbersAreWrittenInTheirShortestForm() {
        func written(_ value: Double) -> String {
            var writer = JSONWriter(capacity: 0)
            writer.number(value)
            return string(writer.bytes)
        }
        #expect(written(250) == "250")
        #expect(written(-0.0) == "-0")
        #expect(written(0.5) == "0.5")
        #expect(written(1.0 / 3) == "0.3333333333333333")
        #expect(written(1e-7) == "1e-07")
        #expect(written(1e300) == "1e+300")
        #expect(written(9007199254740992) == "9007199254740992")
        #expect(written(9007199254740994) == "9.007199254740994e+15")
        #expect(written(1.5) == "1.5")
        #expect(written(.nan) == "null")
    }

    /// A tape lists a value's tokens in document order, each container's `next` past
    /// all it holds, so a reader steps over a member in one step. The writer starts in
    /// a lent buffer too small for them and moves to the heap, as it does for a record
    /// of more tokens than the decoders lend it.
    @Test func theTapeHoldsEveryTokenInOrderAndSkipsContainersWhole() throws {
        let json = Array(#" {"a" : [1, {"b":null}, []], "c":"x\n"} "#.utf8)
        try json.withUnsafeBytes { bytes in
            try withUnsafeTemporaryAllocation(of: JSONToken.self, capacity: 3) { lent in
                var scanner = JSONScanner(bytes, maxNestingDepth: maxDepth)
                var writer = JSONTapeWriter(startingIn: lent)
                #expect(try scanner.value(depth: 1, onto: &writer) == 0)
                try scanner.expectEnd()
                let kinds: [JSONToken.Kind] = [.object, .string, .array, .number, .object, .string, .null, .array, .string, .string]
                #expect(writer.tokens.map(\.kind) == kinds)
                #expect(writer.tokens.map(\.next) == [10, 2, 8, 4, 7, 6, 7, 8, 9, 10])
                let tape = JSONTape(bytes: bytes, tokens: writer.tokens)
                var members: [String] = []
                tape.forEachMember(ofObject: 0) { key, value in members.append("\(tape.text(key))=\(tape[value].kind)") }
                #expect(members == ["a=array", "c=string"])
                var elements: [JSONToken.Kind] = []
                tape.forEachElement(ofArray: 2) { elements.append(tape[$0].kind) }
                #expect(elements == [.number, .object, .array])
                #expect(tape.text(9) == "x\n")
                #expect(tape[5].text(in: tape.bytes, equals: "b"))
            }
        }
    }

    /// Tokens keep their offsets in 32 bits: a value that ends at the last byte of the
    /// largest record the scanner may read keeps its exact place.
    @Test func tokensAtTheEndOfTheLargestRecordKeepTheirOffsets() throws {
        let count = largestRecord
        let json = [UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: " "), count: count - 6) + Array(#""é"]"#.utf8)
        #expect(json.count == count)
        try json.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes, maxNestingDepth: maxDepth)
            var tape = JSONTapeWriter(capacity: 4)
            let array = try scanner.value(depth: 1, onto: &tape)
            #expect(tape.count == 2 && tape[array].kind == .array && tape[array].next == 2 && tape[array].end == count)
            let element = tape[1]
            #expect(element.kind == .string && element.start == count - 4 && element.end == count - 2 && element.next == 2)
            #expect(element.text(in: bytes) == "é")
        }
    }

    @Test func theScannerRefusesDeepNestingAtAnySize() {
        for text in [String(repeating: "[", count: 100_000), String(repeating: #"{"a":"#, count: 100_000),
                     String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)] {
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                var scanner = JSONScanner(UnsafeRawBufferPointer(buffer), maxNestingDepth: maxDepth)
                var tape = JSONTapeWriter(capacity: 4)
                #expect(throws: JSONSyntaxError.self) { try scanner.value(depth: 1, onto: &tape) }
            }
        }
    }
}
