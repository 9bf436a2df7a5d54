#!/usr/bin/env bash
# Minimises a fuzzer finding and commits it as a regression input that `make test` replays.
#
#   Fuzz/Scripts/commit-crash.sh SURFACE Fuzz/artifacts/SURFACE/crash-…   (also timeout-… and oom-… files)
#
# The input is minimised with libFuzzer (-minimize_crash, 60 s at most), copied to
# Tests/KeyframeRobustnessTests/FuzzRegressions/SURFACE/<sha1>, and `git add`ed. Fix the bug, then run
# `swift test --filter FuzzRegressionTests` (the fix is done when it passes) and commit both together.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 SURFACE ARTIFACT" >&2; exit 2; }
surface=$1 artifact=$(realpath "$2")
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
bin=$("$SWIFT" build --package-path Fuzz --scratch-path Fuzz/.build -c release \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address --show-bin-path)
[ -x "$bin/fuzz-$surface" ] || { echo "no fuzzer fuzz-$surface: run make fuzz first" >&2; exit 2; }
minimised=$(mktemp)
trap 'rm -f "$minimised"' EXIT
cp "$artifact" "$minimised"
# A finding that no longer reproduces (already fixed) keeps its original bytes.
"$bin/fuzz-$surface" -minimize_crash=1 -max_total_time=60 -timeout=10 -rss_limit_mb=2048 \
    -exact_artifact_path="$minimised" "$artifact" >/dev/null 2>&1 || true
[ -s "$minimised" ] || cp "$artifact" "$minimised"
dest=Tests/KeyframeRobustnessTests/FuzzRegressions/$surface
mkdir -p "$dest"
name=$(sha1sum "$minimised" | cut -c1-16)
cp "$minimised" "$dest/$name"
git add "$dest/$name"
echo "committed input: $dest/$name ($(wc -c < "$dest/$name") bytes, from $(wc -c < "$artifact"))"
