# Keyframe — the two commands of the README are `make samples` and `make test`.
SWIFT        ?= swift
CONFIG       ?= release
BUILD_FLAGS  ?= -c $(CONFIG)
OUT          ?= out
KEYFRAME      = $(shell $(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/keyframe

.PHONY: all deps build samples test check bench clean fuzz fuzz-smoke test-sanitized bench-lottie-race fidelity

all: build

# Install what the build needs (libpng headers, pkg-config) when it is missing. `make samples` and `make test` add
# their own needs (Scripts/ensure-deps.sh samples|test).
deps:
	@Scripts/ensure-deps.sh build

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product keyframe

# The main job: convert and render every bundled sample into $(OUT)/.
samples: build
	@Scripts/ensure-deps.sh samples
	@Scripts/run-samples.sh "$(KEYFRAME)" "$(OUT)"

# Every test, test classes in parallel processes (one per core; TEST_JOBS=N to choose), then the failures, the skipped
# tests and the ten slowest. Corpus conformance tests read ../shared and are skipped with a message when it is absent.
# TEST_FILTER=REGEX runs the tests whose Target.Class/test name matches.
TEST_JOBS   ?=
TEST_FILTER ?=
TEST_ARGS    = $(if $(TEST_JOBS),--jobs $(TEST_JOBS)) $(if $(TEST_FILTER),--filter '$(TEST_FILTER)')
# KEYFRAME_OPTIMIZE_PIXELS=1 compiles the pixel loops (Raster, PNG, Render, the C shim) optimized inside the debug
# build, so the suite's thousands of frames draw at release speed; see Package.swift.
test:
	@Scripts/ensure-deps.sh test
	KEYFRAME_OPTIMIZE_PIXELS=1 $(SWIFT) build --build-tests
	@Scripts/run-tests.py $(TEST_ARGS)

# The fast tier, to run after every edit: model, import, engine, raster, PNG and the CLI contract (no players,
# browsers, build systems or corpus rendering). `make test` stays the full suite.
check:
	@Scripts/ensure-deps.sh test
	KEYFRAME_OPTIMIZE_PIXELS=1 $(SWIFT) build --build-tests
	@Scripts/run-tests.py --tier check $(TEST_ARGS)

# The fidelity table of docs/conformance.md: every clip of every sample and corpus export, exported to Lottie and
# Core Animation, played by rlottie, ThorVG, lottie-web (svg, canvas) and the Core Animation model, against the full
# render (needs ../shared; several minutes). Rows in .build/fidelity/, the table written by Scripts/fidelity-table.py.
fidelity:
	@Scripts/ensure-deps.sh test
	KEYFRAME_OPTIMIZE_PIXELS=1 $(SWIFT) build --build-tests
	KEYFRAME_FIDELITY=1 $(SWIFT) test --skip-build --filter 'FidelityTableTests'
	@Scripts/fidelity-table.py

# Benchmarks with baselines measured in the same run (need ../shared/corpus): conversion against JSON parsers and the
# official runtimes, the engine against plain interpolation, rendering against encoding alone, batch against a bare
# conversion loop.
bench: deps
	$(SWIFT) build -c release --product keyframe
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench convert
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench engine
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench render
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench batch

# The Lottie race (Benchmarks/, a package of its own that links rlottie and loads ThorVG from thorvg-python; Keyframe
# itself never does): Keyframe's render against rlottie and ThorVG playing Keyframe's own Lottie export of the same
# clip, raster-only and end to end, one thread each, in the same run, at the export's own size, 512² and 1024²
# (RACE_ARGS="--size 1024" for one). RACE_ARGS passes options (e.g. RACE_ARGS="--frames 96 --repetitions 9"). See
# docs/performance.md.
RACE_ARGS ?=
bench-lottie-race: deps
	@Scripts/ensure-deps.sh test
	$(SWIFT) build --package-path Benchmarks --scratch-path Benchmarks/.build -c release --product lottie-race
	"$$($(SWIFT) build --package-path Benchmarks --scratch-path Benchmarks/.build -c release --show-bin-path)/lottie-race" $(RACE_ARGS)

# libFuzzer targets (Fuzz/, a package of its own, built with ASan into Fuzz/.build): `make fuzz` builds them,
# `make fuzz SECONDS=N` also runs each for N seconds (-timeout=10 -rss_limit_mb=2048; FUZZ_TARGETS="json png" for
# some). See docs/robustness.md.
SECONDS      ?=
FUZZ_TARGETS ?=
fuzz: deps
	Fuzz/Scripts/fuzz.sh build $(FUZZ_TARGETS)
	@if [ -n "$(SECONDS)" ]; then Fuzz/Scripts/fuzz.sh corpus $(FUZZ_TARGETS) && Fuzz/Scripts/fuzz.sh run $(SECONDS) $(FUZZ_TARGETS); fi

# The test suite under AddressSanitizer, then under ThreadSanitizer (separate build folders; TSAN_FILTER narrows the
# TSan run, e.g. TSAN_FILTER=KeyframeRenderTests). Leak detection is off inside the XCTest runner (XCTest keeps every
# test case alive until exit); Scripts/leak-check.sh then runs the ASan-built `keyframe` itself with LeakSanitizer on
# through every command on the samples (see docs/robustness.md).
TSAN_FILTER ?=
test-sanitized:
	@Scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests --scratch-path .build-asan --sanitize=address
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --scratch-path .build-asan --sanitize=address
	Scripts/leak-check.sh .build-asan/debug/keyframe
	$(SWIFT) build --build-tests --scratch-path .build-tsan --sanitize=thread
	$(SWIFT) test --skip-build --scratch-path .build-tsan --sanitize=thread $(if $(TSAN_FILTER),--filter $(TSAN_FILTER))

clean:
	rm -rf .build $(OUT) Fuzz/.build Fuzz/.corpus Fuzz/artifacts Benchmarks/.build
