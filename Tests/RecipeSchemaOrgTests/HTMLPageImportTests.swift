import Foundation
@testable import RecipeSchemaOrg
import Testing

@Suite("Import: HTML pages")
struct HTMLPageImportTests {
    typealias Support = SchemaOrgTestSupport

    @Test func theRecipeInTheSecondOfTwoBlocks() throws {
        let page = #"""
        <!DOCTYPE html>
        <html><head>
          <title>Buckwheat pancakes</title>
          <script type="application/ld+json">{"@context": "https://schema.org", "@type": "WebSite", "name": "Kitchen Notes"}</script>
          <script src="/app.js"></script>
          <SCRIPT
             data-owner='seo'   TYPE = 'Application/LD+JSON; charset=utf-8' >
            {"@context": "https://schema.org", "@type": "Recipe", "name": "Buckwheat Pancakes",
             "recipeIngredient": ["200 g buckwheat flour", "2 eggs"], "recipeInstructions": "Whisk.\nFry."}
          </SCRIPT>
        </head><body><h1>Buckwheat pancakes</h1></body></html>
        """#
        let imported = try Support.importHTML(page)
        #expect(imported.document.name == "Buckwheat Pancakes")
        #expect(imported.document.ingredients.map(\.text) == ["200 g buckwheat flour", "2 eggs"])
        #expect(imported.document.instructions.map(\.text) == ["Whisk.", "Fry."])
    }

    @Test(arguments: [
        "<script type=application/ld+json>\n//<![CDATA[\n{\"@type\": \"Recipe\", \"name\": \"Chickpea Stew\"}\n//]]>\n</script>",
        "<script type=\"application/ld+json\"><!-- {\"@type\": \"Recipe\", \"name\": \"Chickpea Stew\"} --></script>",
        "<script type=\"application/ld+json\">/*<![CDATA[*/{\"@type\": \"Recipe\", \"name\": \"Chickpea Stew\"}/*]]>*/</script>",
    ])
    func unquotedTypeAndWrappersInsideTheScript(script: String) throws {
        #expect(try Support.importHTML("<html><body>\(script)</body></html>").document.name == "Chickpea Stew")
    }

    @Test func aScriptInsideAnHTMLCommentIsNotRead() throws {
        let page = """
        <!-- <script type="application/ld+json">{"@type": "Recipe", "name": "Old Draft"}</script> -->
        <script type="application/ld+json">{"@type": "Recipe", "name": "Current Recipe"}</script>
        """
        #expect(try Support.importHTML(page).document.name == "Current Recipe")
    }

    @Test func entitiesAndMarkupInsideTheJSONStrings() throws {
        let page = #"""
        <script type="application/ld+json">
        {"@type": "Recipe", "name": "Mac &amp; Cheese", "description": "Grandma&#39;s <em>favourite</em>.",
         "recipeIngredient": ["250 g macaroni", "1&frac12; cups milk"],
         "recipeInstructions": [{"@type": "HowToStep", "text": "<p>Boil the pasta.</p>"}]}
        </script>
        """#
        let document = try Support.importHTML(page).document
        #expect(document.name == "Mac & Cheese")
        #expect(document.description == "Grandma's favourite.")
        #expect(document.ingredients.map(\.text) == ["250 g macaroni", "1½ cups milk"])
        #expect(document.ingredients[1].parsed.amount == 1.5)
        #expect(document.instructions.map(\.text) == ["Boil the pasta."])
    }

    @Test func aWholeBlockWrittenWithEntitiesIsReadDecoded() throws {
        let page = #"<script type="application/ld+json">{&quot;@type&quot;: &quot;Recipe&quot;, &quot;name&quot;: &quot;Oat Bars&quot;}</script>"#
        #expect(try Support.importHTML(page).document.name == "Oat Bars")
    }

    @Test func anUnreadableBlockIsSkippedWhenAnotherHoldsTheRecipe() throws {
        let page = """
        <script type="application/ld+json">{"@type": "Organization", "name": broken}</script>
        <script type="application/ld+json">{"@type": "Recipe", "name": "Plum Crumble"}</script>
        """
        #expect(try Support.importHTML(page).document.name == "Plum Crumble")
    }

    @Test func placesInsideAPageNameTheScript() throws {
        let page = """
        <script type="application/ld+json">{"@type": "WebSite"}</script>
        <script type="application/ld+json">{"@type": "Recipe", "name": "Bad Steps", "recipeInstructions": [true, "Stir."]}</script>
        """
        let imported = try Support.importHTML(page)
        #expect(imported.document.instructions == [DocumentStep(text: "Stir.")])
        #expect(imported.omissions == [ImportOmission(path: "script 2: $.recipeInstructions[0]", value: "true",
                                                      reason: "a step is text, a HowToStep or a HowToSection")])
    }

    @Test func recipesOfSeveralBlocksAreAllRead() throws {
        let page = """
        <script type="application/ld+json">{"@type": "Recipe", "name": "Starter"}</script>
        <script type="application/ld+json">[{"@type": "Recipe", "name": "Main"}, {"@type": "Recipe", "name": "Starter"}]</script>
        """
        let all = try SchemaOrgImport.recipes(from: Data(page.utf8), contentType: "text/html")
        #expect(all.compactMap { try? $0.get().document.name } == ["Starter", "Main"])
    }

    @Test func aPageJustUnderTheLimitIsRead() throws {
        let recipe = #"<script type="application/ld+json">{"@type": "Recipe", "name": "Long Page"}</script>"#
        let filler = "<div class=\"x\"><p>filler <b>text</b></p></div>\n"
        let padding = String(repeating: filler, count: (SchemaOrgImport.maxHTMLBytes - recipe.utf8.count) / filler.utf8.count)
        let page = Data((padding + recipe).utf8)
        #expect(page.count <= SchemaOrgImport.maxHTMLBytes)
        #expect(try SchemaOrgImport.recipe(from: page, contentType: "text/html").document.name == "Long Page")
    }

    @Test func aLatin1PageIsReadInItsCharset() throws {
        let page = #"<script type="application/ld+json">{"@type": "Recipe", "name": "Crème brûlée"}</script>"#
        let latin1 = try #require(page.data(using: .isoLatin1))
        let imported = try SchemaOrgImport.recipe(from: latin1, contentType: "text/html; charset=ISO-8859-1")
        #expect(imported.document.name == "Crème brûlée")
    }

    @Test func withoutAContentTypeTheFirstCharacterTellsJSONFromHTML() throws {
        let json = #"  {"@type": "Recipe", "name": "Sniffed JSON"}"#
        let html = #"<html><script type="application/ld+json">{"@type": "Recipe", "name": "Sniffed Page"}</script></html>"#
        #expect(try SchemaOrgImport.recipe(from: Data(json.utf8), contentType: nil).document.name == "Sniffed JSON")
        #expect(try SchemaOrgImport.recipe(from: Data(html.utf8), contentType: nil).document.name == "Sniffed Page")
    }
}
