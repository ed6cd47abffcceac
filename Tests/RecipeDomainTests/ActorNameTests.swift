import RecipeDomain
import Testing

/// One spelling per actor, so that the fold (`String ==`, canonical equivalence) and the
/// store (bytes) never disagree on who is who.
@Suite("Actor names")
struct ActorNameTests {
    @Test func namesInTheirOneSpellingAreTaken() {
        for name in ["alice", "user-42", "a", "jos\u{E9}", "chlo\u{E9}", "日本", "Ünal", "o'brien", "a.b@example.com",
                     String(repeating: "é", count: RecipeLimits.maxIdentifierLength)] {
            #expect(ActorName.problem(name) == nil, "\(name.debugDescription)")
            #expect(ActorName.canonical(name) == name)
        }
    }

    /// The alias of the finding: the decomposed spelling is refused, naming the composed one.
    @Test func aDecomposedNameIsRefusedNamingItsCanonicalSpelling() {
        let decomposed = "jose\u{301}"
        #expect(decomposed == "jos\u{E9}") // what the fold saw: one actor
        #expect(Array(decomposed.utf8) != Array("jos\u{E9}".utf8)) // what SQL saw: two
        #expect(ActorName.canonical(decomposed).utf8.elementsEqual("jos\u{E9}".utf8))
        #expect(ActorName.problem(decomposed)
                == #""jose\u{301}" is not an actor name in its canonical spelling (Unicode NFC): write it "jos\u{E9}""#)
        #expect(ActorName.problem("cre\u{300}me-\u{212B}") != nil) // a combining grave; the Ångström sign is Å
    }

    @Test func emptyLongSpacedControlledOrCommentedNamesAreRefused() {
        let refused = ["", String(repeating: "a", count: RecipeLimits.maxIdentifierLength + 1), "bob x", "bob\tx", "bob\nx",
                       "bob\u{0}x", "bob\u{7F}", "bob\u{85}", "bob\u{A0}x", "bob\u{3000}x", "bob\u{2028}", "bob#1", "#"]
        for name in refused {
            #expect(ActorName.problem(name)?.contains("is not an actor name") == true, "\(name.debugDescription)")
        }
        #expect(ActorName.problem("bob\u{0}x") == #""bob\u{0}x" is not an actor name: it holds U+0000 (\#(ActorName.form))"#)
    }

    /// The fold itself refuses a grant or a transfer to a name out of its spelling.
    @Test func theFoldRefusesToShareWithOrTransferToANameOutOfItsSpelling() {
        var recipe = Recipe(id: "r1")
        let start = CommandEnvelope(commandID: "c1", recipeID: "r1", actor: "jos\u{E9}", time: Timestamp(millisecondsSinceEpoch: 0),
                                    actorRole: .writer, command: .draftStarted)
        recipe.apply(start)
        for command in [RecipeCommand.accessGranted(grantee: "jose\u{301}", role: .editor), .ownershipTransferred(newOwner: "jose\u{301}")] {
            let envelope = CommandEnvelope(commandID: "c2", recipeID: "r1", actor: "jos\u{E9}", time: Timestamp(millisecondsSinceEpoch: 0),
                                           actorRole: .writer, command: command)
            guard case .rejected(let rejection) = RecipeDecider.decide(envelope, recipe) else {
                Issue.record("\(command) was not rejected")
                continue
            }
            #expect(rejection.code == .invalid)
            #expect(rejection.message.contains(#"write it "jos\u{E9}""#), "\(rejection.message)")
        }
    }

    /// Names of scalars below U+0300 are decided without normalizing; the verdict must be the
    /// one the full check gives: each such scalar alone, and next to letters, which is where a
    /// composition could happen (none below U+0300 combines: canonical combining class 0).
    @Test func latinNamesGetTheVerdictOfTheFullCheck() {
        func fullVerdict(_ name: String) -> Bool {
            let allowed = name.unicodeScalars.allSatisfy { scalar in
                switch scalar.properties.generalCategory {
                case .control, .surrogate, .lineSeparator, .paragraphSeparator, .spaceSeparator: false
                default: scalar != "#" && !scalar.properties.isWhitespace
                }
            }
            return allowed && ActorName.canonical(name).utf8.elementsEqual(name.utf8)
        }
        for value in UInt32(0)..<0x300 {
            let scalar = Unicode.Scalar(value)!
            #expect(scalar.properties.canonicalCombiningClass == .notReordered, "U+\(String(value, radix: 16))")
            for name in [String(scalar), "e" + String(scalar), String(scalar) + "A"] {
                #expect((ActorName.problem(name) == nil) == fullVerdict(name), "\(name.debugDescription)")
            }
        }
        #expect(ActorName.problem("chloe\u{301}") != nil)
    }
}
