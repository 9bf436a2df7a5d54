#!/usr/bin/env bash
# Installs what a make target needs when it is missing (Debian/Ubuntu, via apt-get).
#
#   Scripts/ensure-deps.sh build     what `swift build` needs: libpng 1.6 headers and pkg-config
#   Scripts/ensure-deps.sh samples   build + what `make samples` needs
#   Scripts/ensure-deps.sh test      build + what `make test` needs
#
# Each mode has its own list below; add a line to the list of the mode that needs a package. A line is
#   "<apt package> <check>"
# where <check> says how to see that it is already there (no package is installed when its check passes):
#   pc:<module>     pkg-config --exists <module>
#   cmd:<command>   the command is on PATH
#   lib:<file>      a shared library of that name in the usual library folders
#   dpkg            the apt package itself is installed (dpkg-query)
#   py:<module>     python3 can import <module> (the package is then installed with apt-get)
# PyPI packages have their own list (pip_packages below): "<pip package> <python module>".
# Nothing here pipes into `grep -q` (under pipefail that can fail by SIGPIPE on machines with many libraries).
set -euo pipefail

mode=${1:-build}

build_packages=(
  "pkg-config cmd:pkg-config"
  "libpng-dev pc:libpng16"
  # Animated WebP (`render --animated FILE.webp`): libwebp and its animation encoder (libwebpmux).
  "libwebp-dev pc:libwebpmux"
)

samples_packages=(
  # The samples need nothing beyond the build (the keyframe CLI reads Flump XML without libxml2).
)

test_packages=(
  # The Flump tests read XML with FoundationXML, which loads libxml2 at run time.
  "libxml2 lib:libxml2.so.2"
  # The preview tests open `keyframe preview` pages in a real headless Chromium.
  "chromium cmd:chromium"
  # The Lottie tests play exports with rlottie and validate them against the Lottie schema with jsonschema.
  "librlottie-dev pc:rlottie"
  "python3-jsonschema py:jsonschema"
  # The sprite-sheet tests cut frames out of the pages with Pillow (Tests/SpriteSheetExportTests/read_sheet.py).
  "python3-pil py:PIL"
  # and load the Godot SpriteFrames resource with Godot 3's headless server.
  "godot3-server cmd:godot3-server"
  # pip, for the PyPI packages below (thorvg-python).
  "python3-pip py:pip"
  # The Bazel rule's test builds an example workspace offline with Debian's Bazel.
  "bazel-bootstrap cmd:bazel"
  # Independent decoders of `render --animated` GIF and WebP files: ffmpeg, and libwebp's webpmux.
  "ffmpeg cmd:ffmpeg"
  "webp cmd:webpmux"
)

# PyPI packages `make test` needs (pip, only when python3 cannot import the module):
test_pip_packages=(
  # The ThorVG conformance test plays Lottie exports with ThorVG (Scripts/thorvg-render.py).
  "thorvg-python thorvg_python"
  # The Bazel rule's remote-cache test runs a BuildGrid server (`bgd`, a Remote Execution API cache) on 127.0.0.1.
  "buildgrid buildgrid"
  # Pillow decodes `render --animated` GIF and WebP files frame by frame (Scripts/decode-animation.py).
  "pillow PIL"
)

case "$mode" in
  build) wanted=("${build_packages[@]}") ;;
  samples) wanted=("${build_packages[@]}" ${samples_packages[@]+"${samples_packages[@]}"}) ;;
  test) wanted=("${build_packages[@]}" ${test_packages[@]+"${test_packages[@]}"}) ;;
  *) echo "usage: $0 build|samples|test" >&2; exit 2 ;;
esac

# Whether the check of one line passes.
present() {
  local package=$1 check=$2
  case "$check" in
    pc:*) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "${check#pc:}" ;;
    cmd:*) command -v "${check#cmd:}" >/dev/null 2>&1 ;;
    lib:*)
      local name=${check#lib:} folder
      for folder in /usr/lib /usr/lib64 /lib /usr/local/lib /usr/lib/*-linux-gnu /lib/*-linux-gnu; do
        if compgen -G "$folder/$name*" >/dev/null; then return 0; fi
      done
      return 1 ;;
    dpkg)
      local status
      status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
      [ "$status" = "install ok installed" ] ;;
    py:*) python3 -c "import ${check#py:}" >/dev/null 2>&1 ;;
    *) echo "keyframe: ensure-deps: unknown check '$check' for $package" >&2; return 1 ;;
  esac
}

# Installs the pip packages of the mode whose module python3 cannot import. A failure is reported, not fatal: the
# tests that need the package skip with a message saying so.
install_pip_packages() {
  [ "$mode" = test ] || return 0
  local line package module
  for line in "${test_pip_packages[@]}"; do
    read -r package module <<<"$line"
    python3 -c "import $module" >/dev/null 2>&1 && continue
    echo "keyframe: installing $package with pip (for make $mode) ..." >&2
    python3 -m pip install --quiet "$package" 2>/dev/null \
      || python3 -m pip install --quiet --user "$package" 2>/dev/null \
      || python3 -m pip install --quiet --break-system-packages "$package" \
      || echo "keyframe: pip install $package failed; the tests that need it will be skipped" >&2
  done
}

# Says, on standard error, when another process holds apt's or dpkg's lock (the lock files are fcntl locks, probed
# with python3 when it is there); apt-get then waits up to $lock_wait seconds for it (DPkg::Lock::Timeout).
say_if_locked() {
  local lock holder
  for lock in ${KEYFRAME_APT_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock}; do
    [ -e "$lock" ] || continue
    command -v python3 >/dev/null 2>&1 || return 0
    holder=$(python3 - "$lock" <<'PY' 2>/dev/null || true
import fcntl, struct, sys
try:
    f = open(sys.argv[1], "rb")
except OSError:
    sys.exit(0)
# F_GETLK names the process holding a write lock that would block ours.
query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
answer = fcntl.fcntl(f, fcntl.F_GETLK, query)
kind, _, _, _, pid = struct.unpack("hhqqi", answer)
if kind != fcntl.F_UNLCK:
    try:
        name = open(f"/proc/{pid}/comm").read().strip()
    except OSError:
        name = "another process"
    print(f"{name} (pid {pid})")
PY
)
    if [ -n "$holder" ]; then
      echo "keyframe: $lock is held by $holder, another package install; waiting up to ${lock_wait}s for it" \
           "to finish (KEYFRAME_APT_LOCK_TIMEOUT sets how long) ..." >&2
      return 0
    fi
  done
}

missing=()
for line in ${wanted[@]+"${wanted[@]}"}; do
  read -r package check <<<"$line"
  present "$package" "$check" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then install_pip_packages; exit 0; fi

echo "keyframe: installing ${missing[*]} (for make $mode) ..." >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "keyframe: cannot install ${missing[*]}: apt-get not found." \
       "On macOS: brew install libpng pkg-config. Elsewhere install libpng 1.6 headers and pkg-config yourself." >&2
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
# Another package install (unattended upgrades, a second terminal) may hold apt's locks: wait for it rather than
# fail at once, and say what we are waiting for.
lock_wait=${KEYFRAME_APT_LOCK_TIMEOUT:-900}
apt_options=(-o "DPkg::Lock::Timeout=$lock_wait")
say_if_locked
$sudo apt-get "${apt_options[@]}" update -qq || { echo "keyframe: apt-get update failed" >&2; exit 1; }
say_if_locked
$sudo apt-get "${apt_options[@]}" install -y -qq "${missing[@]}" \
  || { echo "keyframe: apt-get install ${missing[*]} failed" >&2; exit 1; }
install_pip_packages
