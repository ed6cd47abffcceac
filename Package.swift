// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RecipeLedger",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Kafka", targets: ["Kafka"]),
        .library(name: "RecipeDomain", targets: ["RecipeDomain"]),
        .library(name: "RecipeWire", targets: ["RecipeWire"]),
        .library(name: "RecipeProjection", targets: ["RecipeProjection"]),
        .executable(name: "recipes", targets: ["recipes"]),
    ],
    targets: [
        // C at the edge: system libraries found through pkg-config.
        .systemLibrary(
            name: "CRdKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The raw librdkafka producer loop that benchmarks measure the wrapper against.
        .target(name: "CRdKafkaBaseline", dependencies: ["CRdKafka"]),

        .target(name: "Kafka", dependencies: ["CRdKafka"]),
        .target(name: "RecipeDomain"),
        .target(name: "RecipeWire", dependencies: ["RecipeDomain"]),
        .target(name: "RecipeProjection", dependencies: ["Kafka", "RecipeDomain", "RecipeWire", "CSQLite"]),
        .executableTarget(
            name: "recipes",
            dependencies: ["Kafka", "RecipeDomain", "RecipeWire", "RecipeProjection", "CRdKafkaBaseline"]
        ),

        .testTarget(name: "KafkaTests", dependencies: ["Kafka"]),
        .testTarget(name: "RecipeDomainTests", dependencies: ["RecipeDomain"]),
        .testTarget(name: "RecipeWireTests", dependencies: ["RecipeWire", "RecipeDomain"], exclude: ["Golden", "Fixtures"]),
        .testTarget(name: "RecipeProjectionTests", dependencies: ["RecipeProjection", "Kafka", "RecipeWire", "RecipeDomain"]),
    ],
    swiftLanguageModes: [.v6]
)
