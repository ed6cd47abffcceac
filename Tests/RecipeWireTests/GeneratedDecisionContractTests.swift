import Foundation
import RecipeWire
import Testing

/// The decision schema's lists made from the kinds (its `commandType` enum, its event
/// `type` enum and the event's `allOf` branches) are the ones checked in. The event
/// schemas themselves are among `ContractGenerator.files` (GeneratedContractTests).
@Suite struct GeneratedDecisionContractTests {
    @Test func theDecisionSchemaListsEveryEventAndCommandType() throws {
        let path = "Schemas/decisions/decision.v1.schema.json"
        let current = try GeneratedContractTests.read(path)
        let generated = try #require(ContractGenerator.decisionSchema(updating: current),
                                     "\(path): its commandType enum, event type enum or event allOf moved")
        if current != generated, GeneratedContractTests.updating { try GeneratedContractTests.write(generated, to: path) }
        #expect(GeneratedContractTests.updating || current == generated,
                "\(path) is stale: run scripts/generate-contract and review the diff")
    }

    /// A kind left out of the lists is put back, and the rest of the file is kept.
    @Test func aMissingTypeIsPutBack() throws {
        let current = try GeneratedContractTests.read("Schemas/decisions/decision.v1.schema.json")
        let stale = current.replacingOccurrences(of: "            \"OwnerAssigned.v1\"\n", with: "")
            .replacingOccurrences(of: "            \"OwnershipTransferred.v1\",\n", with: "            \"OwnershipTransferred.v1\"\n")
            .replacingOccurrences(of: "        \"TagRemoved\",\n", with: "")
        #expect(stale != current)
        #expect(ContractGenerator.decisionSchema(updating: stale) == current)
    }
}
