// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RecipeLedger",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Kafka", targets: ["Kafka"]),
        .library(name: "RecipeDomain", targets: ["RecipeDomain"]),
        .library(name: "RecipeJSON", targets: ["RecipeJSON"]),
        .library(name: "RecipeWire", targets: ["RecipeWire"]),
        .library(name: "RecipeWriteSide", targets: ["RecipeWriteSide"]),
        .library(name: "RecipeDecisions", targets: ["RecipeDecisions"]),
        .library(name: "RecipeProjection", targets: ["RecipeProjection"]),
        .library(name: "RecipeHTTP", targets: ["RecipeHTTP"]),
        .library(name: "RecipeProcess", targets: ["RecipeProcess"]),
        .library(name: "RecipeAudit", targets: ["RecipeAudit"]),
        .library(name: "RecipeSchemaOrg", targets: ["RecipeSchemaOrg"]),
        .executable(name: "recipes", targets: ["recipes"]),
        .executable(name: "recipes-bench", targets: ["recipes-bench"]),
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
        // gperftools' tcmalloc, the programs' allocator in place of glibc's (docs/architecture.md, "Memory").
        .systemLibrary(
            name: "CTCMalloc",
            pkgConfig: "libtcmalloc_minimal",
            providers: [.apt(["libgoogle-perftools-dev"])]
        ),
        // libmicrohttpd, with a shim for what Swift cannot call (variadic functions).
        .target(name: "CMicroHTTPD"),
        // SHA-256 and a constant-time comparison for the tokens file, from the GnuTLS libmicrohttpd links already.
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        // The raw librdkafka producer loop that `recipes-bench kafka` measures the wrapper against.
        .target(name: "CRdKafkaBaseline", dependencies: ["CRdKafka"]),

        // The one lock (`Locked`), owned threads, a value computed on a thread, work on two threads.
        .target(name: "Threads"),
        .target(name: "Kafka", dependencies: ["CRdKafka", "Threads"]),
        .target(name: "RecipeDomain"),
        // The JSON engine: the strict scanner and its tape, the canonical writer, `JSONValue`; no dependencies.
        .target(name: "RecipeJSON"),
        // The record formats, a folder each: Commands/ (recipes.edits), Decisions/ (recipes.decisions), Documents/
        // (the detail document, recipes.committed), Topics/; Records/ holds what both records share.
        .target(name: "RecipeWire", dependencies: ["RecipeDomain", "RecipeJSON", "Threads"]),
        // Seeded commands (SplitMix64, RandomCommandGenerator) for tests and benchmarks; no program users run links it.
        .target(name: "RecipeGenerators", dependencies: ["RecipeDomain"]),
        // Producers' side of the edits log: input made into commands, checked with the record decoder, appended.
        .target(name: "RecipeWriteSide", dependencies: ["Kafka", "RecipeDomain", "RecipeJSON", "RecipeWire", "Threads"]),
        // The decider stage: edits in, one decision per command out (recipes.decisions).
        .target(name: "RecipeDecisions", dependencies: ["Kafka", "RecipeDomain", "RecipeWire", "Threads"]),
        .target(name: "RecipeProjection", dependencies: ["Kafka", "RecipeDomain", "RecipeJSON", "RecipeWire", "CSQLite", "Threads"]),
        // The API's contract is served from the binary: Contract/ links to Schemas/ (one copy of each file).
        // So is the web console (Console/: plain HTML, CSS and JavaScript, served at / and /console/).
        .target(name: "RecipeHTTP", dependencies: ["CMicroHTTPD", "CGnuTLS", "Kafka", "RecipeDomain", "RecipeJSON", "RecipeWire", "RecipeWriteSide", "RecipeProjection",
                                                "RecipeSchemaOrg", "RecipeDecisions", "Threads"],
                resources: [.embedInCode("Contract"), .embedInCode("Console")]),
        // Replay and audit tooling that asks the log itself; `audit redecide` judges with the decider's own CommandJudge.
        .target(name: "RecipeAudit", dependencies: ["Kafka", "RecipeDomain", "RecipeJSON", "RecipeWire", "RecipeDecisions", "RecipeProjection"]),
        // schema.org Recipe JSON-LD in and out (pages, files), around its own plain values.
        .target(name: "RecipeSchemaOrg", dependencies: ["RecipeDomain", "RecipeJSON", "RecipeWire"]),
        // One process's wiring: the edits producer, the projector's thread (and a decider's), the read model and the HTTP server.
        .target(name: "RecipeProcess", dependencies: ["Kafka", "RecipeWire", "RecipeWriteSide", "RecipeDecisions", "RecipeProjection", "RecipeHTTP",
                                                   "Threads"]),
        // Argument parsing and command dispatch, shared by the two programs; no business rules.
        .target(name: "RecipeCLI"),
        .executableTarget(
            name: "recipes",
            dependencies: ["RecipeCLI", "Kafka", "RecipeDomain", "RecipeJSON", "RecipeWire", "RecipeWriteSide", "RecipeDecisions", "RecipeProjection",
                           "RecipeHTTP", "RecipeProcess", "RecipeAudit", "RecipeSchemaOrg", "CTCMalloc", "Threads"]
        ),
        // The benchmarks, apart from the program users run: only they link the raw C baseline and the generators.
        .executableTarget(
            name: "recipes-bench",
            dependencies: ["RecipeCLI", "Kafka", "RecipeDomain", "RecipeWire", "RecipeWriteSide", "RecipeDecisions", "RecipeProjection", "RecipeHTTP",
                           "RecipeProcess", "RecipeAudit", "RecipeSchemaOrg", "RecipeGenerators", "CRdKafkaBaseline", "CTCMalloc", "Threads"]
        ),

        // What the test suites share: running programs, waiting off the cooperative pool.
        .target(name: "RecipeTestSupport", dependencies: ["Threads"], path: "Tests/Support"),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "KafkaTests", dependencies: ["Kafka", "RecipeTestSupport", "Threads"]),
        .testTarget(name: "RecipeDomainTests", dependencies: ["RecipeDomain", "RecipeGenerators"]),
        .testTarget(name: "RecipeGeneratorsTests", dependencies: ["RecipeGenerators", "RecipeDomain"]),
        .testTarget(name: "RecipeJSONTests", dependencies: ["RecipeJSON", "RecipeGenerators"]),
        .testTarget(name: "RecipeWireTests", dependencies: ["RecipeWire", "RecipeJSON", "RecipeDomain", "RecipeGenerators", "RecipeTestSupport"],
                    exclude: ["Golden", "Fixtures"]),
        .testTarget(name: "RecipeDecisionsTests", dependencies: ["RecipeDecisions", "RecipeProjection", "RecipeAudit", "Kafka", "RecipeWire",
                                                                 "RecipeDomain", "RecipeGenerators", "RecipeTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "RecipeSchemaOrgTests", dependencies: ["RecipeSchemaOrg", "RecipeDomain", "RecipeJSON", "RecipeWire", "RecipeGenerators",
                                                                 "RecipeTestSupport"],
                    exclude: ["recipe-export.schema.json", "Pages", "RealPages"]),
        .testTarget(name: "RecipeHTTPTests", dependencies: ["RecipeHTTP", "RecipeProcess", "RecipeWriteSide", "RecipeDecisions", "RecipeProjection", "Kafka",
                                                            "RecipeJSON", "RecipeWire", "RecipeDomain", "RecipeGenerators", "RecipeTestSupport"]),
        // Replay and audit tests live beside the projection tests: they share its fixture and processes.
        .testTarget(name: "RecipeProjectionTests", dependencies: ["RecipeProjection", "RecipeDecisions", "RecipeAudit", "Kafka", "RecipeWire", "RecipeDomain",
                                                                   "RecipeGenerators", "RecipeTestSupport", "Threads"]),
    ],
    swiftLanguageModes: [.v6]
)
