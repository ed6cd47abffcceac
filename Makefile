# make run   — the whole service on the embedded broker: Kafka, projector, HTTP API on :8080, sample recipes
# make test  — every test, against the embedded broker, then the web console in Chromium and the API contract (schemathesis)
# Each installs the Debian packages it needs first (deploy/packages.txt): `make run` what building and
# running take ([build], [runtime]); `make test` the test tools too ([test]: Chromium, selenium, kcat, Python).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
RELEASE_BIN = .build/release/recipes
BENCH_BIN = .build/release/recipes-bench

.PHONY: run test build release deps test-deps bench fuzz clean

deps:
	@scripts/install-packages build runtime

test-deps:
	@scripts/install-packages build runtime test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product recipes

run: release
	$(RELEASE_BIN) dev --seed

# The concurrency check first: it takes a second, and what it refuses can hang the suite.
# Crash reports go to files, printed when the suite fails: written into the suite's output pipe,
# the backtracer of a crashed test process blocked and the run hung instead of failing.
CRASH_REPORTS = $(CURDIR)/.build/crash-reports
test: test-deps
	scripts/check-concurrency
	$(SWIFT) build --build-tests
	rm -rf $(CRASH_REPORTS) && mkdir -p $(CRASH_REPORTS)
	SWIFT_BACKTRACE=output-to=$(CRASH_REPORTS) $(SWIFT) test --skip-build || \
		{ for report in $(CRASH_REPORTS)/*; do [ -f "$$report" ] && echo "== $$report" && cat "$$report"; done; exit 1; }
	scripts/console-test
	scripts/api-contract

# The benchmarks are a program of their own: recipes does not contain them. `append` measures kcat
# beside them when it is installed (`make test-deps` installs it).
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
