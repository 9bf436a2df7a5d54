#!/usr/bin/env bash
# Installs libpng's headers and pkg-config (and libxml2 for the tests) when they are missing (Debian/Ubuntu, via
# apt-get).
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libpng16; } && [ ! -f /usr/include/png.h ]; then
  missing+=(libpng-dev)
fi
# The Flump tests read XML with FoundationXML, which loads libxml2 at run time (the keyframe CLI does not need it).
if [ "$(uname -s)" = Linux ] && ! { ldconfig -p 2>/dev/null | grep -q 'libxml2\.so\.2'; }; then
  missing+=(libxml2)
fi
# The Bazel rule test (KeyframeBatchTests.BazelRuleTests) drives Debian's Bazel 4 offline.
if [ "$(uname -s)" = Linux ] && ! command -v bazel >/dev/null 2>&1; then
  missing+=(bazel-bootstrap)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "keyframe: installing ${missing[*]} ..." >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "keyframe: cannot install ${missing[*]}: apt-get not found. Install libpng (1.6) headers and pkg-config yourself." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "keyframe: need root to install ${missing[*]} (no sudo). Run: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || { echo "keyframe: apt-get update failed" >&2; exit 1; }
$sudo apt-get install -y -qq "${missing[@]}" || { echo "keyframe: apt-get install ${missing[*]} failed" >&2; exit 1; }
