#!/usr/bin/env bash
# Builds the DocC documentation of every library product with the toolchain's own `docc`, over the symbol graphs the
# compiler emits (`swift package dump-symbol-graph`; no package outside SwiftPM's cache is needed, so not the
# swift-docc-plugin), and fails on any warning.
#
#   Scripts/docc.sh [--skip-build] [OUTPUT]      (default OUTPUT: .build/docc)
#
# Each product's catalog is Sources/<Target>/Documentation.docc (a landing page with its Topics, and articles); the
# archives are written to OUTPUT/<Target>.doccarchive. Exit 1 when docc warns or fails for any target.
set -euo pipefail
cd "$(dirname "$0")/.."
skip_build=0
if [ "${1:-}" = "--skip-build" ]; then skip_build=1; shift; fi
output=${1:-.build/docc}
export KEYFRAME_OPTIMIZE_PIXELS=${KEYFRAME_OPTIMIZE_PIXELS:-1}
if [ "$skip_build" = 0 ]; then
  swift package dump-symbol-graph --minimum-access-level public >/dev/null
fi
graphs=$(ls -d .build/*/symbolgraph | head -1)
mkdir -p "$output"
status=0
for catalog in Sources/*/Documentation.docc; do
  target=$(basename "$(dirname "$catalog")")
  scratch=$(mktemp -d)
  cp "$graphs/$target.symbols.json" "$scratch/"
  cp "$graphs/$target"@*.symbols.json "$scratch/" 2>/dev/null || true
  log=$(mktemp)
  if ! docc convert "$catalog" --additional-symbol-graph-dir "$scratch" --fallback-display-name "$target" \
      --fallback-bundle-identifier "keyframe.$target" --output-path "$output/$target.doccarchive" >"$log" 2>&1; then
    echo "docc: $target failed" >&2; cat "$log" >&2; status=1
  elif grep -q "warning:" "$log"; then
    echo "docc: $target has warnings:" >&2; grep -A3 "warning:" "$log" >&2; status=1
  else
    echo "docc: $target: $(find "$output/$target.doccarchive/data/documentation" -name '*.json' | wc -l) pages"
  fi
  rm -rf "$scratch" "$log"
done
exit $status
