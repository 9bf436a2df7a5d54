# Keyframe — the two commands of the README are `make samples` and `make test`.
SWIFT        ?= swift
CONFIG       ?= release
BUILD_FLAGS  ?= -c $(CONFIG)
OUT          ?= out
KEYFRAME      = $(shell $(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/keyframe

.PHONY: all deps build samples test bench clean

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

# Every test. Corpus conformance tests read ../shared and are skipped with a message when it is absent.
test:
	@Scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks with baselines measured in the same run (need ../shared/corpus): conversion against a bare JSON parse,
# the engine against plain interpolation, rendering against libpng encoding alone.
bench: deps
	$(SWIFT) build -c release --product keyframe
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench convert
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench engine
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench render
	"$$($(SWIFT) build -c release --show-bin-path)/keyframe" bench batch

clean:
	rm -rf .build $(OUT)
