import RecipeDomain
import Testing

/// One form of recipe id, so that no two texts are one recipe in any layer.
@Suite("Recipe ids")
struct RecipeIDFormTests {
    static let form = "1 to 128 ASCII letters, digits, '.', '_' or '-', the first a letter or digit"

    @Test func idsOfTheFormAreTaken() throws {
        for text in ["a", "R", "7", "r1", "r-1.x_y", "5a8f2c1e-8d7b-4e3a-9c41-2b7d9e0f6a55", "5A8F2C1E-8D7B-4E3A-9C41-2B7D9E0F6A55",
                     "a..b", "a" + String(repeating: "-", count: 127)] {
            #expect(try RecipeID(text).text == text)
            #expect(RecipeID(utf8: Array(text.utf8))?.text == text)
        }
    }

    @Test func everythingElseIsRefusedNamingTheForm() {
        let refused = ["", String(repeating: "a", count: 129), "\0", "r\0x", "r\0", "r x", " r", "r\n", "r\t", "r/x", "r\\x", "r%00",
                       "-r", ".r", "_r", "..", "cr\u{E8}me", "cre\u{300}me", "r\u{FEFF}", "\u{FF11}", "r\u{200B}"]
            + (Array(0x01...0x1F) + [0x7F]).map { "r" + String(UnicodeScalar(UInt8($0))) }
        for text in refused {
            #expect(throws: RecipeID.Invalid.self, "\(text.debugDescription)") { try RecipeID(text) }
            #expect(RecipeID(utf8: Array(text.utf8)) == nil, "\(text.debugDescription)")
            #expect(!RecipeID.isID(Array(text.utf8)))
        }
        #expect(RecipeID(utf8: [0x72, 0xFF]) == nil)
        #expect(RecipeID.Invalid("r\0x").message == #""r\u{0}x" is not a recipe id (\#(Self.form))"#)
    }

    /// Every byte value after a first letter: taken exactly when it is an ASCII letter,
    /// a digit, '.', '_' or '-'.
    @Test func eachByteIsTakenExactlyWhenTheFormNamesIt() {
        for byte in UInt8.min...UInt8.max {
            let named = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
            #expect(RecipeID.isID([0x72, byte]) == named, "byte \(byte)")
            #expect(RecipeID.isID([byte, 0x72]) == (named && byte != 0x2E && byte != 0x5F && byte != 0x2D), "first byte \(byte)")
        }
    }

    /// `String` calls the two Unicode spellings of `crème` equal (canonical equivalence);
    /// bytes, Kafka and SQLite do not. Neither is an id, so the question never reaches a recipe.
    @Test func theTwoSpellingsOfOneWordAreNeitherAnId() {
        let composed = "cr\u{E8}me", decomposed = "cre\u{300}me"
        #expect(composed == decomposed)
        #expect(!Array(composed.utf8).elementsEqual(decomposed.utf8))
        #expect(RecipeID.Invalid(composed).quotedText == #""cr\u{E8}me""#)
        #expect(RecipeID.Invalid(decomposed).quotedText == #""cre\u{300}me""#)
    }

    @Test func idsAreEqualExactlyWhenTheirBytesAre() throws {
        let ids = try ["r1", "R1", "r1.", "r-1", "r_1"].map { try RecipeID($0) }
        #expect(Set(ids).count == ids.count)
        #expect(try RecipeID("r1") == RecipeID(utf8: Array("r1".utf8)))
        #expect(try ids.sorted().map(\.text) == ["R1", "r-1", "r1", "r1.", "r_1"])
    }

    @Test func quotingShowsWhatCannotBePrinted() {
        #expect(RecipeID.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(RecipeID.quoted("\u{1B}[31m") == #""\u{1B}[31m""#)
        #expect(RecipeID.quoted(String(repeating: "x", count: 100)) == "\"" + String(repeating: "x", count: 80) + "…\"")
        #expect(RecipeID.quoted(utf8: [0x61, 0xFF]) == #""a\u{FFFD}""#)
    }
}
