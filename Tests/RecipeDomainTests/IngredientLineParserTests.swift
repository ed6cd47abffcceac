import RecipeDomain
import RecipeGenerators
import Testing

/// One line and every field the parser must read from it.
struct ExpectedLine: Sendable, CustomTestStringConvertible {
    let line: String
    let expected: ParsedIngredient
    var testDescription: String { "\"\(line)\"" }
}

/// `text` is the line itself unless given: the parser must hand back what the cook wrote.
private func line(_ line: String, _ amount: Double?, _ amountMax: Double?, _ unit: String?, _ name: String,
                  note: String? = nil, text: String? = nil) -> ExpectedLine {
    ExpectedLine(line: line, expected: ParsedIngredient(text: text ?? line, amount: amount, amountMax: amountMax,
                                                        unit: unit, name: name, note: note))
}

private func expectParsed(_ example: ExpectedLine) {
    let parsed = IngredientLineParser.parse(example.line)
    let expected = example.expected
    #expect(parsed.text == expected.text)
    #expect(sameAmount(parsed.amount, expected.amount), "amount \(String(describing: parsed.amount))")
    #expect(sameAmount(parsed.amountMax, expected.amountMax), "amountMax \(String(describing: parsed.amountMax))")
    #expect(parsed.unit == expected.unit)
    #expect(parsed.name == expected.name)
    #expect(parsed.note == expected.note)
}

private func sameAmount(_ lhs: Double?, _ rhs: Double?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): true
    case let (lhs?, rhs?): abs(lhs - rhs) < 1e-9
    default: false
    }
}

@Suite("Ingredient lines as cooks write them")
struct IngredientLineParserTests {
    // MARK: - Number, known unit, name

    static let numberUnitName: [ExpectedLine] = [
        line("2 cups flour", 2, nil, "cup", "flour"),
        line("1 cup sugar", 1, nil, "cup", "sugar"),
        line("3 tablespoons butter", 3, nil, "tbsp", "butter"),
        line("1 tablespoon honey", 1, nil, "tbsp", "honey"),
        line("2 tbsp olive oil", 2, nil, "tbsp", "olive oil"),
        line("1 Tbsp soy sauce", 1, nil, "tbsp", "soy sauce"),
        line("2 tbs lemon juice", 2, nil, "tbsp", "lemon juice"),
        line("1 T vinegar", 1, nil, "tbsp", "vinegar"),
        line("1 t salt", 1, nil, "tsp", "salt"),
        line("2 teaspoons baking powder", 2, nil, "tsp", "baking powder"),
        line("1 teaspoon vanilla extract", 1, nil, "tsp", "vanilla extract"),
        line("2 tsps dried oregano", 2, nil, "tsp", "dried oregano"),
        line("1 TBSP sesame oil", 1, nil, "tbsp", "sesame oil"),
        line("2 TSP smoked paprika", 2, nil, "tsp", "smoked paprika"),
        line("1 tbsp. cornstarch", 1, nil, "tbsp", "cornstarch"),
        line("500 grams minced beef", 500, nil, "g", "minced beef"),
        line("1 gram saffron threads", 1, nil, "g", "saffron threads"),
        line("250 g butter", 250, nil, "g", "butter"),
        line("100 gr dark chocolate", 100, nil, "g", "dark chocolate"),
        line("1 kilogram potatoes", 1, nil, "kg", "potatoes"),
        line("2 kg pork shoulder", 2, nil, "kg", "pork shoulder"),
        line("1 kilo onions", 1, nil, "kg", "onions"),
        line("200 mg citric acid", 200, nil, "mg", "citric acid"),
        line("300 milligrams ascorbic acid", 300, nil, "mg", "ascorbic acid"),
        line("1 litre vegetable stock", 1, nil, "l", "vegetable stock"),
        line("2 liters water", 2, nil, "l", "water"),
        line("1 l milk", 1, nil, "l", "milk"),
        line("1 L whole milk", 1, nil, "l", "whole milk"),
        line("500 millilitres cream", 500, nil, "ml", "cream"),
        line("250 milliliters coconut milk", 250, nil, "ml", "coconut milk"),
        line("100 ml white wine", 100, nil, "ml", "white wine"),
        line("50 mL dark rum", 50, nil, "ml", "dark rum"),
        line("2 cl gin", 2, nil, "cl", "gin"),
        line("6 dl water", 6, nil, "dl", "water"),
        line("3 deciliters oat milk", 3, nil, "dl", "oat milk"),
        line("2 c milk", 2, nil, "cup", "milk"),
        line("1 Cup basmati rice", 1, nil, "cup", "basmati rice"),
        line("8 fluid ounces orange juice", 8, nil, "fl oz", "orange juice"),
        line("4 fl oz heavy cream", 4, nil, "fl oz", "heavy cream"),
        line("2 fl. oz. espresso", 2, nil, "fl oz", "espresso"),
        line("6 ounces cheddar", 6, nil, "oz", "cheddar"),
        line("8 oz cream cheese", 8, nil, "oz", "cream cheese"),
        line("4 oz. goat cheese", 4, nil, "oz", "goat cheese"),
        line("1 pound ground turkey", 1, nil, "lb", "ground turkey"),
        line("2 pounds carrots", 2, nil, "lb", "carrots"),
        line("3 lbs apples", 3, nil, "lb", "apples"),
        line("1 lb spaghetti", 1, nil, "lb", "spaghetti"),
        line("1 pint strawberries", 1, nil, "pt", "strawberries"),
        line("2 pt buttermilk", 2, nil, "pt", "buttermilk"),
        line("1 quart chicken broth", 1, nil, "qt", "chicken broth"),
        line("2 qt cold water", 2, nil, "qt", "cold water"),
        line("1 gallon iced tea", 1, nil, "gal", "iced tea"),
        line("1 gal apple cider", 1, nil, "gal", "apple cider"),
        line("1 pinch nutmeg", 1, nil, "pinch", "nutmeg"),
        line("2 pinches salt", 2, nil, "pinch", "salt"),
        line("1 dash hot sauce", 1, nil, "dash", "hot sauce"),
        line("3 dashes bitters", 3, nil, "dash", "bitters"),
        line("4 cloves garlic", 4, nil, "clove", "garlic"),
        line("1 clove garlic", 1, nil, "clove", "garlic"),
        line("1 can chickpeas", 1, nil, "can", "chickpeas"),
        line("2 cans black beans", 2, nil, "can", "black beans"),
        line("1 package dry yeast", 1, nil, "package", "dry yeast"),
        line("2 pkg cream cheese", 2, nil, "package", "cream cheese"),
        line("4 slices bread", 4, nil, "slice", "bread"),
        line("1 slice ham", 1, nil, "slice", "ham"),
        line("3 pieces chicken", 3, nil, "piece", "chicken"),
        line("2 pcs star anise", 2, nil, "piece", "star anise"),
        line("1 pc ginger", 1, nil, "piece", "ginger"),
        line("1 bunch parsley", 1, nil, "bunch", "parsley"),
        line("2 bunches spring onions", 2, nil, "bunch", "spring onions"),
        line("3 sprigs thyme", 3, nil, "sprig", "thyme"),
        line("1 handful spinach", 1, nil, "handful", "spinach"),
        line("2 handfuls basil leaves", 2, nil, "handful", "basil leaves"),
        line("1 stick butter", 1, nil, "stick", "butter"),
        line("2 stalks lemongrass", 2, nil, "stalk", "lemongrass"),
        line("1 head cauliflower", 1, nil, "head", "cauliflower"),
        line("1 jar pesto", 1, nil, "jar", "pesto"),
        line("1 bottle red wine", 1, nil, "bottle", "red wine"),
        line("1 tin sardines", 1, nil, "tin", "sardines"),
        line("1 packet gelatine", 1, nil, "packet", "gelatine"),
        line("1 bag frozen peas", 1, nil, "bag", "frozen peas"),
        line("1 box lasagna sheets", 1, nil, "box", "lasagna sheets"),
        line("5 drops food colouring", 5, nil, "drop", "food colouring"),
    ]

    @Test(arguments: numberUnitName)
    func aNumberAKnownUnitAndAName(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Units glued to numbers

    static let gluedUnits: [ExpectedLine] = [
        line("250g flour", 250, nil, "g", "flour"),
        line("2tbsp sugar", 2, nil, "tbsp", "sugar"),
        line("1.5kg lamb leg", 1.5, nil, "kg", "lamb leg"),
        line("500ml stock", 500, nil, "ml", "stock"),
        line("2T butter", 2, nil, "tbsp", "butter"),
        line("1t salt", 1, nil, "tsp", "salt"),
        line("12oz pasta", 12, nil, "oz", "pasta"),
        line("2lb beef chuck", 2, nil, "lb", "beef chuck"),
        line("100G almonds", 100, nil, "g", "almonds"),
        line("3dl cream", 3, nil, "dl", "cream"),
        line("2-3tbsp honey", 2, 3, "tbsp", "honey"),
        line("½tsp chili flakes", 0.5, nil, "tsp", "chili flakes"),
        line("2tbsp. tahini", 2, nil, "tbsp", "tahini"),
    ]

    @Test(arguments: gluedUnits)
    func aUnitGluedToItsNumber(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Fractions and decimals

    static let fractionsAndDecimals: [ExpectedLine] = [
        line("½ cup milk", 0.5, nil, "cup", "milk"),
        line("⅓ cup oil", 1.0 / 3, nil, "cup", "oil"),
        line("⅔ cup brown sugar", 2.0 / 3, nil, "cup", "brown sugar"),
        line("¼ tsp salt", 0.25, nil, "tsp", "salt"),
        line("¾ cup yogurt", 0.75, nil, "cup", "yogurt"),
        line("⅛ tsp cayenne", 0.125, nil, "tsp", "cayenne"),
        line("⅜ cup water", 0.375, nil, "cup", "water"),
        line("⅝ cup cream", 0.625, nil, "cup", "cream"),
        line("⅞ cup flour", 0.875, nil, "cup", "flour"),
        line("⅕ cup vinegar", 0.2, nil, "cup", "vinegar"),
        line("⅙ tsp ground cloves", 1.0 / 6, nil, "tsp", "ground cloves"),
        line("1½ cups rice", 1.5, nil, "cup", "rice"),
        line("1 ½ cups broth", 1.5, nil, "cup", "broth"),
        line("2¼ cups flour", 2.25, nil, "cup", "flour"),
        line("2 ¾ cups milk", 2.75, nil, "cup", "milk"),
        line("1⅓ cups milk", 1 + 1.0 / 3, nil, "cup", "milk"),
        line("2⅔ cups rolled oats", 2 + 2.0 / 3, nil, "cup", "rolled oats"),
        line("½ lemon", 0.5, nil, nil, "lemon"),
        line("1/2 cup butter", 0.5, nil, "cup", "butter"),
        line("1/4 tsp black pepper", 0.25, nil, "tsp", "black pepper"),
        line("3/4 cup sugar", 0.75, nil, "cup", "sugar"),
        line("1/3 cup cocoa powder", 1.0 / 3, nil, "cup", "cocoa powder"),
        line("1 1/2 cups oats", 1.5, nil, "cup", "oats"),
        line("2 1/4 tsp yeast", 2.25, nil, "tsp", "yeast"),
        line("1-1/2 cups water", 1.5, nil, "cup", "water"),
        line("1⁄2 cup honey", 0.5, nil, "cup", "honey"),
        line("3/2 cups stock", 1.5, nil, "cup", "stock"),
        line("1.5 cups milk", 1.5, nil, "cup", "milk"),
        line("1,5 dl milk", 1.5, nil, "dl", "milk"),
        line("0.5 tsp salt", 0.5, nil, "tsp", "salt"),
        line(".5 tsp pepper", 0.5, nil, "tsp", "pepper"),
        line("2.25 kg turkey", 2.25, nil, "kg", "turkey"),
        line("0,75 l water", 0.75, nil, "l", "water"),
        line("1.5 l sparkling water", 1.5, nil, "l", "sparkling water"),
        line("12 eggs", 12, nil, nil, "eggs"),
    ]

    @Test(arguments: fractionsAndDecimals)
    func fractionsAndDecimalsInEveryWriting(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Ranges

    static let ranges: [ExpectedLine] = [
        line("2-3 cloves garlic", 2, 3, "clove", "garlic"),
        line("2–3 cloves garlic", 2, 3, "clove", "garlic"),
        line("2 - 3 tbsp sugar", 2, 3, "tbsp", "sugar"),
        line("2 to 3 cups stock", 2, 3, "cup", "stock"),
        line("2 To 3 carrots", 2, 3, nil, "carrots"),
        line("1 or 2 chillies", 1, 2, nil, "chillies"),
        line("1—2 tsp salt", 1, 2, "tsp", "salt"),
        line("½-1 tsp chili powder", 0.5, 1, "tsp", "chili powder"),
        line("1 to 1½ cups water", 1, 1.5, "cup", "water"),
        line("1½–2 lbs potatoes", 1.5, 2, "lb", "potatoes"),
        line("3-4 large eggs", 3, 4, nil, "large eggs"),
        line("4 to 6 slices bacon", 4, 6, "slice", "bacon"),
        line("200-250 g spinach", 200, 250, "g", "spinach"),
        line("1 1/2 - 2 cups broth", 1.5, 2, "cup", "broth"),
        line("2 or 3 sprigs rosemary", 2, 3, "sprig", "rosemary"),
        line("1,5-2 dl cream", 1.5, 2, "dl", "cream"),
        line("2-2 cups water", 2, nil, "cup", "water"), // equal ends are one amount
        line("3-2 cups water", nil, nil, nil, "3-2 cups water"), // a range must not go down
    ]

    @Test(arguments: ranges)
    func rangesWithDashesToAndOr(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Numbers without a unit

    static let numberWithoutUnit: [ExpectedLine] = [
        line("2 egg yolks", 2, nil, nil, "egg yolks"),
        line("3 eggs", 3, nil, nil, "eggs"),
        line("1 onion", 1, nil, nil, "onion"),
        line("2 large eggs", 2, nil, nil, "large eggs"),
        line("1 medium onion, chopped", 1, nil, nil, "medium onion", note: "chopped"),
        line("6 medjool dates", 6, nil, nil, "medjool dates"),
        line("12 cherry tomatoes", 12, nil, nil, "cherry tomatoes"),
        line("1 avocado", 1, nil, nil, "avocado"),
        line("4 chicken thighs", 4, nil, nil, "chicken thighs"),
        line("2 bay leaves", 2, nil, nil, "bay leaves"),
        line("3 green onions", 3, nil, nil, "green onions"),
        line("2 knobs butter", 2, nil, nil, "knobs butter"), // an unknown word is part of the name
        line("2 T-bone steaks", 2, nil, nil, "T-bone steaks"),
        line("2 cinnamon sticks", 2, nil, nil, "cinnamon sticks"),
        line("1 cup milk or cream", 1, nil, "cup", "milk or cream"),
        line("10 g  yeast", 10, nil, "g", "yeast"),
    ]

    @Test(arguments: numberWithoutUnit)
    func aNumberWithoutAUnit(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - No quantity

    static let noQuantity: [ExpectedLine] = [
        line("Salt, to taste", nil, nil, nil, "Salt", note: "to taste"),
        line("Oil for frying", nil, nil, nil, "Oil", note: "for frying"),
        line("Chopped cabbage", nil, nil, nil, "Chopped cabbage"),
        line("A few threads of saffron", nil, nil, nil, "A few threads of saffron"),
        line("freshly ground pepper (optional)", nil, nil, nil, "freshly ground pepper", note: "optional"),
        line("Salt and pepper to taste", nil, nil, nil, "Salt and pepper", note: "to taste"),
        line("Olive oil as needed", nil, nil, nil, "Olive oil", note: "as needed"),
        line("Fresh coriander to garnish", nil, nil, nil, "Fresh coriander", note: "to garnish"),
        line("Lemon wedges to serve", nil, nil, nil, "Lemon wedges", note: "to serve"),
        line("Parmesan, optional", nil, nil, nil, "Parmesan", note: "optional"),
        line("Sesame seeds optional", nil, nil, nil, "Sesame seeds", note: "optional"),
        line("Butter for greasing the pan", nil, nil, nil, "Butter", note: "for greasing the pan"),
        line("Flour for dusting", nil, nil, nil, "Flour", note: "for dusting"),
        line("Water", nil, nil, nil, "Water"),
        line("Ice cubes", nil, nil, nil, "Ice cubes"),
        line("Cooked rice for serving", nil, nil, nil, "Cooked rice", note: "for serving"),
        line("Hot sauce if desired", nil, nil, nil, "Hot sauce", note: "if desired"),
        line("a few drops of lemon juice", nil, nil, nil, "a few drops of lemon juice"),
        line("a little olive oil", nil, nil, nil, "a little olive oil"),
        line("Some chives", nil, nil, nil, "Some chives"),
        line("Pinch of salt", nil, nil, nil, "Pinch of salt"),
        line("Zest of lemon", nil, nil, nil, "Zest of lemon"),
        line("Black pepper, freshly ground, to taste", nil, nil, nil, "Black pepper", note: "freshly ground, to taste"),
        line("   Salt, to taste  ", nil, nil, nil, "Salt", note: "to taste", text: "Salt, to taste"),
        line("Nutmeg (a pinch)", nil, nil, nil, "Nutmeg", note: "a pinch"),
        line("Salt to taste, optional", nil, nil, nil, "Salt", note: "to taste; optional"),
        line("Coarse salt optional to taste", nil, nil, nil, "Coarse salt", note: "optional; to taste"),
        line("For the sauce:", nil, nil, nil, "For the sauce:"),
    ]

    @Test(arguments: noQuantity)
    func linesWithoutAQuantity(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Notes after commas and in parentheses

    static let notes: [ExpectedLine] = [
        line("2 cups (480 ml) milk", 2, nil, "cup", "milk", note: "480 ml"),
        line("1 cup (2 sticks) butter, softened", 1, nil, "cup", "butter", note: "2 sticks; softened"),
        line("3 carrots, peeled and diced", 3, nil, nil, "carrots", note: "peeled and diced"),
        line("2 tbsp butter, melted", 2, nil, "tbsp", "butter", note: "melted"),
        line("1 red pepper, seeded, sliced", 1, nil, nil, "red pepper", note: "seeded, sliced"),
        line("200 g feta, crumbled", 200, nil, "g", "feta", note: "crumbled"),
        line("1 cup walnuts (toasted)", 1, nil, "cup", "walnuts", note: "toasted"),
        line("2 potatoes (about 400 g), cubed", 2, nil, nil, "potatoes", note: "about 400 g; cubed"),
        line("1 lemon (juice and zest)", 1, nil, nil, "lemon", note: "juice and zest"),
        line("4 tomatoes (ripe), halved", 4, nil, nil, "tomatoes", note: "ripe; halved"),
        line("1 onion, chopped (optional)", 1, nil, nil, "onion", note: "chopped (optional)"),
        line("1,5 dl cream, whipped", 1.5, nil, "dl", "cream", note: "whipped"),
        line("2 cloves garlic, minced", 2, nil, "clove", "garlic", note: "minced"),
        line("1 cup rice (rinsed) (uncooked)", 1, nil, "cup", "rice", note: "rinsed; uncooked"),
        line("salt (to taste)", nil, nil, nil, "salt", note: "to taste"),
        line("2 cups spinach (packed)", 2, nil, "cup", "spinach", note: "packed"),
        line("1 cup stock (homemade (or bought))", 1, nil, "cup", "stock", note: "homemade (or bought)"),
        line("1 shallot,finely diced", 1, nil, nil, "shallot", note: "finely diced"),
        line("2 tbsp  oil ,  for the pan", 2, nil, "tbsp", "oil", note: "for the pan"),
        line("1 cup cream (unclosed", 1, nil, "cup", "cream (unclosed"),
        line("Sugar,", nil, nil, nil, "Sugar"),
        line("3 eggs ()", 3, nil, nil, "eggs"),
    ]

    @Test(arguments: notes)
    func notesAfterACommaAndInParentheses(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Containers and package sizes

    static let containers: [ExpectedLine] = [
        line("1 (14 oz) can tomatoes", 1, nil, "can", "tomatoes", note: "14 oz"),
        line("1 can (12 ounces) beer", 1, nil, "can", "beer", note: "12 ounces"),
        line("2 (15 oz) cans kidney beans, drained", 2, nil, "can", "kidney beans", note: "15 oz; drained"),
        line("1 (8 ounce) package cream cheese, softened", 1, nil, "package", "cream cheese",
             note: "8 ounce; softened"),
        line("1 jar (500 g) passata", 1, nil, "jar", "passata", note: "500 g"),
        line("1 (400 ml) tin coconut milk", 1, nil, "tin", "coconut milk", note: "400 ml"),
        line("2 packages (7 g each) dry yeast", 2, nil, "package", "dry yeast", note: "7 g each"),
        line("1 large can tomatoes", 1, nil, "can", "tomatoes", note: "large"),
        line("3 (6 oz) bags baby spinach", 3, nil, "bag", "baby spinach", note: "6 oz"),
        line("2 14-oz cans diced tomatoes", 2, nil, "can", "diced tomatoes", note: "14-oz"),
        line("1 14 oz can coconut milk", 1, nil, "can", "coconut milk", note: "14 oz"),
        line("1 8-ounce package cream cheese", 1, nil, "package", "cream cheese", note: "8-ounce"),
        line("1 x 400g tin chopped tomatoes", 1, nil, "tin", "chopped tomatoes", note: "400g"),
        line("2 x 400 g cans chickpeas, rinsed", 2, nil, "can", "chickpeas", note: "400 g; rinsed"),
        line("3 500 ml bottles sparkling water", 3, nil, "bottle", "sparkling water", note: "500 ml"),
        line("2 × 1 l cartons milk", 2, nil, nil, "× 1 l cartons milk"), // carton is no unit of the table
        line("1 14-oz chicken breast", 1, nil, nil, "14-oz chicken breast"), // a size needs a container
        line("2 x eggs", 2, nil, nil, "x eggs"),
        line("1 2 cans beans", 1, nil, nil, "2 cans beans"), // a bare number is no size
    ]

    @Test(arguments: containers)
    func containersAndTheirSizes(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Approximate and trailing quantities

    static let approximateAndTrailing: [ExpectedLine] = [
        line("about 2 lbs chicken", 2, nil, "lb", "chicken", note: "about"),
        line("Up to 1 tbsp sugar", 1, nil, "tbsp", "sugar", note: "Up to"),
        line("approximately 500 g potatoes", 500, nil, "g", "potatoes", note: "approximately"),
        line("approx. 1 l water", 1, nil, "l", "water", note: "approx."),
        line("around 3 cups flour", 3, nil, "cup", "flour", note: "around"),
        line("roughly 2 tbsp oil", 2, nil, "tbsp", "oil", note: "roughly"),
        line("at least 4 apples", 4, nil, nil, "apples", note: "at least"),
        line("About 1/2 cup raisins", 0.5, nil, "cup", "raisins", note: "About"),
        line("nearly 1 kg cherries", 1, nil, "kg", "cherries", note: "nearly"),
        line("about 2-3 tbsp milk, warm", 2, 3, "tbsp", "milk", note: "about; warm"),
        line("about salt", nil, nil, nil, "about salt"),
        line("Juice of 1 lime", 1, nil, nil, "lime", note: "Juice of"),
        line("Zest of 2 lemons", 2, nil, nil, "lemons", note: "Zest of"),
        line("Juice and zest of 1 orange", 1, nil, nil, "orange", note: "Juice and zest of"),
        line("Seeds of ½ pomegranate", 0.5, nil, nil, "pomegranate", note: "Seeds of"),
        line("juice of 1/2 lemon", 0.5, nil, nil, "lemon", note: "juice of"),
        line("Zest of 1 lime, finely grated", 1, nil, nil, "lime", note: "Zest of; finely grated"),
        line("Juice of about 2 limes", 2, nil, nil, "limes", note: "Juice of; about"),
        line("Flour 250 g", 250, nil, "g", "Flour"),
        line("Milk 2 dl", 2, nil, "dl", "Milk"),
        line("Sugar 1 cup", 1, nil, "cup", "Sugar"),
        line("Butter 100g", 100, nil, "g", "Butter"),
        line("Cream 2-3 dl", 2, 3, "dl", "Cream"),
        line("Vanilla sugar 1 tsp, optional", 1, nil, "tsp", "Vanilla sugar", note: "optional"),
        line("Eggs 3", nil, nil, nil, "Eggs 3"), // a number at the end without a unit stays in the name
    ]

    @Test(arguments: approximateAndTrailing)
    func approximateAndTrailingQuantities(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Size words, "of" and articles

    static let sizeWordsOfAndArticles: [ExpectedLine] = [
        line("1 heaping tbsp cocoa", 1, nil, "tbsp", "cocoa", note: "heaping"),
        line("2 level tsp baking soda", 2, nil, "tsp", "baking soda", note: "level"),
        line("1 scant cup sugar", 1, nil, "cup", "sugar", note: "scant"),
        line("2 cups of flour", 2, nil, "cup", "flour"),
        line("1 pinch of salt", 1, nil, "pinch", "salt"),
        line("A pinch of salt", 1, nil, "pinch", "salt"),
        line("a handful of walnuts", 1, nil, "handful", "walnuts"),
        line("a dash of Worcestershire sauce", 1, nil, "dash", "Worcestershire sauce"),
        line("A bunch of dill", 1, nil, "bunch", "dill"),
        line("an 8 oz block of tofu", nil, nil, nil, "an 8 oz block of tofu"),
        line("a knob of butter", nil, nil, nil, "a knob of butter"), // "a" counts only before a known unit
        line("3 ears of corn", 3, nil, "ears", "corn"),
        line("2 knobs of butter", 2, nil, "knobs", "butter"),
        line("1 tub of yogurt", 1, nil, "tub", "yogurt"),
        line("2 sheets of puff pastry", 2, nil, "sheets", "puff pastry"),
        line("1 cup of", 1, nil, "cup", "of"), // "of" with nothing after it is the name
    ]

    @Test(arguments: sizeWordsOfAndArticles)
    func sizeWordsOfAndArticlesBeforeUnits(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Lines it cannot read

    static let unreadable: [ExpectedLine] = [
        line("2 cups", nil, nil, nil, "2 cups"),
        line("250 g", nil, nil, nil, "250 g"),
        line("", nil, nil, nil, ""),
        line("   ", nil, nil, nil, "", text: ""),
        line("(optional)", nil, nil, nil, "(optional)"),
        line("1-inch piece ginger", nil, nil, nil, "1-inch piece ginger"),
        line("2% milk", nil, nil, nil, "2% milk"),
        line("0 g sugar", nil, nil, nil, "0 g sugar"),
        line("2x chicken breasts", nil, nil, nil, "2x chicken breasts"),
        line("1/0 cup flour", nil, nil, nil, "1/0 cup flour"),
        line("2000000 g flour", nil, nil, nil, "2000000 g flour"),
        line(", to taste", nil, nil, nil, ", to taste"),
    ]

    @Test(arguments: unreadable)
    func aLineItCannotReadIsKeptWholeAsTheName(_ example: ExpectedLine) { expectParsed(example) }

    // MARK: - Properties over the whole table

    static let allExamples = numberUnitName + gluedUnits + fractionsAndDecimals + ranges + numberWithoutUnit
        + noQuantity + notes + containers + approximateAndTrailing + sizeWordsOfAndArticles + unreadable

    @Test func theTableHasAtLeastTwoHundredLines() {
        #expect(Self.allExamples.count >= 200)
        #expect(Set(Self.allExamples.map(\.line)).count == Self.allExamples.count, "every line once")
    }

    @Test func everyParsedLineIsStorable() {
        for example in Self.allExamples {
            let parsed = IngredientLineParser.parse(example.line)
            if let amount = parsed.amount {
                #expect(amount > 0 && amount <= RecipeLimits.maxIngredientAmount, "\(example.line)")
                if let amountMax = parsed.amountMax { #expect(amountMax > amount, "\(example.line)") }
            } else {
                #expect(parsed.amountMax == nil && parsed.unit == nil, "\(example.line)")
            }
            #expect(!parsed.name.isEmpty || parsed.text.isEmpty, "\(example.line)")
        }
    }

    /// Pieces the grammar cares about, glued or spaced at random: no line of them may trap
    /// the parser or give a result the content rules would refuse.
    static let fragments = [
        "1", "2", "0", "12", "1/2", "/", "⁄", "½", "⅔", "1,5", ".", ",", "-", "–", "to", "or", "of", "a", "x",
        "(", ")", "cup", "tbsp", "T", "t", "g", "oz", "fl", "can", "about", "up", "for", "taste", "optional",
        "large", "flour", "é", "🧂", " ", "  ", "\t",
    ]

    static let openings = ["2", "1½", "2-3", "1 to 2", "½–1", "3 or 2", "250g", "1 1/2", "1,5", "2 - 2", "a"]

    @Test func randomLinesAlwaysGiveAStorableResult() {
        var random = SplitMix64(seed: 2024)
        var quantified = 0, ranged = 0, withUnit = 0, withNote = 0
        for _ in 0..<5000 {
            // Half the lines start like a quantity, so ranges and units come up often.
            var line = random.int(below: 2) == 0 ? Self.openings[random.int(below: Self.openings.count)] : ""
            for _ in 0..<random.int(in: 0...10) {
                line += Self.fragments[random.int(below: Self.fragments.count)]
                if random.int(below: 2) == 0 { line += " " }
            }
            let parsed = IngredientLineParser.parse(line)
            #expect(parsed.text == line.trimmingCharacters(), "\(line)")
            if let amount = parsed.amount {
                #expect(amount > 0 && amount <= RecipeLimits.maxIngredientAmount, "\(line)")
                if let amountMax = parsed.amountMax { #expect(amountMax > amount, "\(line)") }
                #expect(!parsed.name.isEmpty, "\(line)")
            } else {
                #expect(parsed.amountMax == nil && parsed.unit == nil, "\(line)")
            }
            if parsed.name.isEmpty { #expect(parsed.text.isEmpty, "\(line)") }
            if parsed.note?.isEmpty == true { Issue.record("empty note for \(line)") }
            if parsed.amount != nil { quantified += 1 }
            if parsed.amountMax != nil { ranged += 1 }
            if parsed.unit != nil { withUnit += 1 }
            if parsed.note != nil { withNote += 1 }
        }
        // The lines reach every part of the grammar, not just the fallback.
        #expect(quantified > 500 && ranged > 20 && withUnit > 100 && withNote > 500)
    }

    @Test func theQuantityOfAParsedLineReadsBack() {
        #expect(IngredientLineParser.parse("2-3 cloves garlic, crushed").quantity.text == "2–3 cloves")
        #expect(IngredientLineParser.parse("1 1/2 cups oats").quantity.text == "1½ cups")
        #expect(IngredientLineParser.parse("Salt, to taste").quantity.text == nil)
    }
}

private extension String {
    /// Without surrounding spaces, tabs and newlines (what the parser trims).
    func trimmingCharacters() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
