# make run   — the whole service on the embedded broker: Kafka, projector, HTTP API on :8080, sample recipes
# make test  — every test, against the embedded broker, then the web console in Chromium and the API contract (schemathesis)
# Both install the Debian packages they need first (deploy/packages.txt).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
RELEASE_BIN = .build/release/recipes
BENCH_BIN = .build/release/recipes-bench

.PHONY: run test build release deps bench fuzz clean

deps:
	@scripts/install-packages

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product recipes

run: release
	$(RELEASE_BIN) dev --seed

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/console-test
	scripts/api-contract

# The benchmarks are a program of their own: recipes does not contain them.
bench: release
	$(SWIFT) build -c release --product recipes-bench
	$(BENCH_BIN) kafka
	$(BENCH_BIN) fold
	$(BENCH_BIN) wire
	$(BENCH_BIN) project
	$(BENCH_BIN) replay
	$(BENCH_BIN) http
	$(BENCH_BIN) append
	$(BENCH_BIN) import

# libFuzzer on the record decoder (FUZZ_SECONDS, default 60).
fuzz: deps
	scripts/fuzz-wire

clean:
	rm -rf .build
