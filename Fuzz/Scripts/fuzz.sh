#!/usr/bin/env bash
# Keyframe's libFuzzer targets (Fuzz/Package.swift), built with ASan, run with time, memory and time-out bounds.
#
#   Fuzz/Scripts/fuzz.sh build [SURFACE…]        build the fuzzers (release, -sanitize=fuzzer,address)
#   Fuzz/Scripts/fuzz.sh corpus [SURFACE…]       add the seeds to the corpora in Fuzz/.corpus/<surface>/
#   Fuzz/Scripts/fuzz.sh run SECONDS [SURFACE…]  run each fuzzer for SECONDS over its corpus; a summary per target
#                                                 goes to Fuzz/artifacts/summary.tsv; exit 1 when any target failed
#
# Seeds: the bundled Samples/, Fuzz/Seeds/<surface>/, the committed regression inputs, and ../shared/corpus when it
# is there. Findings land in Fuzz/artifacts/<surface>/ (crash-*, timeout-*, oom-*); minimise and commit one with
# Fuzz/Scripts/commit-crash.sh SURFACE FILE.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
SCRATCH=$ROOT/Fuzz/.build
CORPUS=$ROOT/Fuzz/.corpus
ARTIFACTS=$ROOT/Fuzz/artifacts
SHARED=${KEYFRAME_SHARED_CORPUS:-$ROOT/../shared/corpus}
REGRESSIONS=$ROOT/Tests/KeyframeRobustnessTests/FuzzRegressions
ALL=(json animate spritemap dragonbones dbbin flump-json flump-xml sheet-json sheet-xml document script png png-encode render)
BUILD_FLAGS=(--package-path "$ROOT/Fuzz" --scratch-path "$SCRATCH" -c release
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)

surfaces() { if [ $# -gt 0 ]; then printf '%s\n' "$@"; else printf '%s\n' "${ALL[@]}"; fi; }

build() {
    if [ $# -eq 0 ]; then
        "$SWIFT" build "${BUILD_FLAGS[@]}"
    else
        for s in "$@"; do "$SWIFT" build "${BUILD_FLAGS[@]}" --product "fuzz-$s"; done
    fi
}

# Copies the files matching find's arguments under $1 into the corpus folder $2, named by content hash.
collect() {
    local from=$1 into=$2; shift 2
    [ -d "$from" ] || return 0
    find "$from" -type f \( "$@" \) -size -2M -print0 | while IFS= read -r -d '' f; do
        cp "$f" "$into/seed-$(sha1sum "$f" | cut -c1-16)"
    done
}

# A .dbbin seed made from a JSON skeleton: DBDT tag, version, header length, the JSON with an empty offset table.
dbbin_seed() {
    python3 - "$1" "$2" <<'PY'
import json, struct, sys
data = json.load(open(sys.argv[1], encoding="utf-8-sig"))
data["offset"] = [0] * 12
header = json.dumps(data, separators=(",", ":")).encode()
open(sys.argv[2], "wb").write(b"DBDT" + struct.pack("<I", 0x0005_0005)[:4] + struct.pack("<I", len(header)) + header)
PY
}

corpus() {
    local keyframe=""
    if "$SWIFT" build --product keyframe >/dev/null 2>&1; then keyframe="$("$SWIFT" build --show-bin-path)/keyframe"; fi
    for s in $(surfaces "$@"); do
        local dir=$CORPUS/$s
        mkdir -p "$dir"   # kept between runs: what the fuzzer added stays (delete Fuzz/.corpus to start afresh)
        case $s in
            json) collect Samples "$dir" -name '*.json'; collect "$SHARED" "$dir" -name '*.json' ;;
            animate) collect Samples "$dir" -name Animation.json; collect "$SHARED/animate_atlas" "$dir" -name Animation.json ;;
            spritemap) collect Samples "$dir" -name 'spritemap*.json'; collect "$SHARED/animate_atlas" "$dir" -name 'spritemap*.json' ;;
            dragonbones) collect Samples "$dir" -name '*_ske.json'; collect "$SHARED/dragonbones" "$dir" -name '*_ske.json' -o -name 'skeleton.json' ;;
            dbbin)
                dbbin_seed Samples/dragonbones-waver/waver_ske.json "$dir/seed-waver-header"
                collect "$SHARED" "$dir" -name '*.dbbin' ;;
            flump-json) collect Samples "$dir" -name library.json; collect "$SHARED/flump" "$dir" -name library.json ;;
            flump-xml) collect "$SHARED" "$dir" -name '*.xml' ;;
            sheet-json) collect "$SHARED" "$dir" -name '*.json' -size -256k ;;
            sheet-xml) collect "$SHARED" "$dir" -name '*.xml' ;;
            document | render)
                if [ -n "$keyframe" ]; then
                    for sample in Samples/*/; do
                        [ "$(basename "$sample")" = scripts ] && continue
                        "$keyframe" convert "$sample" -o "$dir/seed-$(basename "$sample").json" >/dev/null 2>&1 || true
                    done
                fi ;;
            script) collect Samples/scripts "$dir" -name '*.json' ;;
            png) collect Samples "$dir" -name '*.png' -size -64k; collect Tests/KeyframePNGTests "$dir" -name '*.png' -size -64k ;;
        esac
        collect "Fuzz/Seeds/$s" "$dir" -name '*'
        collect "$REGRESSIONS/$s" "$dir" -name '*'
        echo "corpus $s: $(find "$dir" -type f | wc -l) seeds"
    done
}

run() {
    local seconds=$1; shift
    local bin; bin=$("$SWIFT" build "${BUILD_FLAGS[@]}" --show-bin-path)
    mkdir -p "$ARTIFACTS"
    local summary=$ARTIFACTS/summary.tsv failed=0
    printf 'target\tseconds\texecutions\texec/s\tcoverage\tfeatures\tcorpus\tresult\n' > "$summary"
    for s in $(surfaces "$@"); do
        [ -d "$CORPUS/$s" ] || corpus "$s"
        mkdir -p "$ARTIFACTS/$s"
        local log=$ARTIFACTS/$s/run.log status=0
        "$bin/fuzz-$s" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
            -dict="Fuzz/Dictionaries/$s.dict" -artifact_prefix="$ARTIFACTS/$s/" "$CORPUS/$s" > "$log" 2>&1 || status=$?
        local execs cov ft units rate result=ok
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
        ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
        units=$(find "$CORPUS/$s" -type f | wc -l)
        if [ $status -ne 0 ]; then result="FAILED (exit $status): $(grep -m1 -o 'ERROR: libFuzzer: [a-z-]*\|SUMMARY: [A-Za-z]*: [a-z-]*' "$log" || true)"; failed=1; fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$units" "$result" | tee -a "$summary"
    done
    [ $failed -eq 0 ] || { echo "fuzz: a target failed; see Fuzz/artifacts/<target>/run.log and its crash-/timeout-/oom- files" >&2; exit 1; }
}

command=${1:-}; shift || true
case $command in
    build) build "$@" ;;
    corpus) corpus "$@" ;;
    run) [ $# -ge 1 ] || { echo "usage: $0 run SECONDS [SURFACE…]" >&2; exit 2; }; run "$@" ;;
    *) echo "usage: $0 build|corpus|run SECONDS [SURFACE…]" >&2; exit 2 ;;
esac
