#!/usr/bin/env bash
# LeakSanitizer over the shipped tool: runs an AddressSanitizer build of `keyframe` with leak detection on through
# every command family on the bundled samples, success and failure paths alike, and fails on any leak or memory
# error report (called by `make test-sanitized`).
#
#   Scripts/leak-check.sh KEYFRAME_ASAN_BINARY
#
# The XCTest runner itself is not leak-checked: XCTest keeps every test case object (and what its setUp made)
# alive until exit, so LeakSanitizer would report XCTest's own bookkeeping, and a suppression broad enough to hide
# it would hide everything a test calls. The tool's own processes are where a leak would matter to a user.
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 KEYFRAME_ASAN_BINARY" >&2
    exit 2
fi
keyframe=$1
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/keyframe-leak-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=detect_leaks=1
export LSAN_OPTIONS="suppressions=$here/Scripts/lsan-suppressions.txt:print_suppressions=0"

runs=0
reports=0
# check EXPECTED_STATUS ARGS…: runs keyframe, counts a run with a leak or memory error report (or an unexpected
# exit status: LeakSanitizer turns any status into 1 when it reports).
check() {
    local expected=$1
    shift
    runs=$((runs + 1))
    "$keyframe" "$@" >"$work/stdout" 2>"$work/stderr"
    local status=$?
    if grep -q -E "ERROR: (LeakSanitizer|AddressSanitizer)" "$work/stderr" || [ "$status" -ne "$expected" ]; then
        reports=$((reports + 1))
        echo "leak-check: keyframe $* (exit $status, expected $expected):" >&2
        grep -E "ERROR:|SUMMARY:|^ *#[0-9]+ " "$work/stderr" | head -30 >&2
    fi
}

samples="$here/Samples"
# Every command of `make samples`: convert, inspect, render with a contact sheet, preview, both exporters, play.
for sample in animate-walker bta-spinner dragonbones-waver flump-hopbot; do
    check 0 convert "$samples/$sample" -o "$work/$sample.json"
    check 0 inspect "$samples/$sample" --json
    check 0 render "$samples/$sample" -o "$work/$sample-frames" --frames 0..5 --jobs 2 --contact-sheet "$work/$sample-sheet.png"
    check 0 preview "$samples/$sample" -o "$work/$sample.html"
    check 0 export "$samples/$sample" --to lottie -o "$work/$sample.lottie"
    check 0 export "$samples/$sample" --to core-animation -o "$work/$sample.ca"
done
check 0 inspect "$samples/animate-walker" --lottie-report
check 0 export "$samples/flump-hopbot" --to lottie --images folder --profile full -o "$work/hopbot-full"
check 0 export "$samples/dragonbones-waver" --to core-animation --format plist -o "$work/waver-plist"
for script in "$samples"/scripts/*.json; do
    check 0 play "$script" --fps 30
done
check 0 render "$samples/animate-walker" --script "$samples/scripts/walker-interaction.json" -o "$work/scripted" --fps 10
# Batch (parallel, then a no-change rerun), verification against a recorded set, and batch verification.
check 0 batch "$samples" -o "$work/batch" --jobs 2 --to normalized --to lottie --to core-animation
check 0 batch "$samples" -o "$work/batch" --jobs 2 --to normalized --to lottie --to core-animation
check 0 verify "$samples/animate-walker" --golden "$work/golden" --record
check 0 verify "$samples/animate-walker" --golden "$work/golden" --html "$work/verify.html"
check 0 batch "$samples" -o "$work/batch-verify" --verify "$work/batch-golden" --record
# Failure paths: input errors (1) and usage errors (2) must end as cleanly as successes.
printf '{"a": [1, 2' >"$work/broken.json"
check 1 convert "$work/broken.json" -o "$work/broken-out.json"
check 1 convert "$work/does-not-exist" -o "$work/none.json"
check 1 verify "$samples/bta-spinner" --golden "$work/golden"
check 2 render "$samples/animate-walker" --fps abc
check 2 convert --no-such-option
check 2 export "$samples/animate-walker" --to no-such-format -o "$work/nope"

echo "leak-check: $runs runs of $keyframe, $reports with a report"
[ "$reports" -eq 0 ]
