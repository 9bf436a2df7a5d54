#!/usr/bin/env bash
# Converts and renders every bundled sample with the keyframe CLI (called by `make samples`).
#
#   Scripts/run-samples.sh KEYFRAME_BINARY OUT_DIR
#
# For each folder of Samples/ that holds an export (Animation.json, *_ske.json, skeleton.json or library.json):
#   OUT_DIR/<sample>.json   normalized document   (keyframe convert)
#   OUT_DIR/<sample>.txt    summary               (keyframe inspect)
#   OUT_DIR/<sample>/<clip>-NNNN.png   every frame of every clip (keyframe render)
#   OUT_DIR/<sample>-sheet.png         all those frames on one labelled contact sheet
#   OUT_DIR/<sample>.html              an interactive preview of every clip (keyframe preview)
#   OUT_DIR/<sample>.lottie/<clip>.json   every clip as Lottie (keyframe export --to lottie)
#   OUT_DIR/<sample>.ca/<clip>.json       every clip as a Core Animation layer tree (keyframe export --to core-animation)
# then plays every Samples/scripts/*.json (see "Play" below) into OUT_DIR/<script>.play.txt.
# Prints one line per sample; exits non-zero when any step of any sample fails (every sample is still attempted).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 KEYFRAME_BINARY OUT_DIR" >&2
    exit 2
fi
keyframe=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
samples="$here/Samples"

if [ ! -x "$keyframe" ]; then
    echo "error: $keyframe is not an executable keyframe binary (build it first: swift build --product keyframe)" >&2
    exit 2
fi
if [ ! -d "$samples" ]; then
    echo "error: no Samples/ folder at $samples" >&2
    exit 2
fi
mkdir -p "$out" || exit 2

is_export() {
    local dir=$1
    [ -f "$dir/Animation.json" ] && return 0
    compgen -G "$dir/*_ske.json" > /dev/null && return 0
    [ -f "$dir/skeleton.json" ] || [ -f "$dir/library.json" ]
}

failed=0
count=0
for dir in "$samples"/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    is_export "$dir" || continue
    count=$((count + 1))
    log="$out/$name.log"
    : > "$log"
    status=ok
    detail=""

    # Convert: the normalized document.
    if ! "$keyframe" convert "$dir" -o "$out/$name.json" >> "$log" 2>&1; then
        status=FAIL
        detail="convert failed"
    fi

    # Inspect: the summary.
    if ! "$keyframe" inspect "$dir" > "$out/$name.txt" 2>> "$log"; then
        status=FAIL
        detail="${detail:+$detail, }inspect failed"
    fi

    # Render: every frame of every clip, plus a contact sheet.
    rm -rf "${out:?}/$name"
    if ! "$keyframe" render "$dir" -o "$out/$name" --contact-sheet "$out/$name-sheet.png" --quiet >> "$log" 2>&1; then
        status=FAIL
        detail="${detail:+$detail, }render failed"
    fi

    # Preview: one self-contained HTML page with every clip.
    if ! "$keyframe" preview "$dir" -o "$out/$name.html" --quiet >> "$log" 2>&1; then
        status=FAIL
        detail="${detail:+$detail, }preview failed"
    fi

    # Export: every clip for today's players (warnings, e.g. a mesh Lottie cannot show, go to the log).
    for format in lottie core-animation; do
        folder="$out/$name.$([ "$format" = lottie ] && echo lottie || echo ca)"
        rm -rf "$folder"
        if ! "$keyframe" export "$dir" --to "$format" -o "$folder/" >> "$log" 2>&1; then
            status=FAIL
            detail="${detail:+$detail, }export --to $format failed"
        fi
    done

    if [ "$status" = ok ]; then
        clips=$(grep -c '^  [^ ].*: frames ' "$out/$name.txt" || true)
        bytes=$(wc -c < "$out/$name.json" | tr -d ' ')
        frames=$(find "$out/$name" -name '*.png' | wc -l | tr -d ' ')
        printf '%-4s %-24s %s.json (%s bytes), %s.txt (%s clip(s)), %s/ (%s frames), %s-sheet.png, .html, .lottie/, .ca/\n' \
            ok "$name" "$name" "$bytes" "$name" "$clips" "$name" "$frames" "$name"
        rm -f "$log"
    else
        failed=$((failed + 1))
        printf '%-4s %-24s %s; see %s\n' FAIL "$name" "$detail" "$log"
        sed 's/^/     | /' "$log" | head -n 5
    fi
done

# ---- Play ------------------------------------------------------------------------------------------------------
# Every animator script in Samples/scripts/ is played with `keyframe play` (table output):
#   OUT_DIR/<script>.play.txt   the trace: each tick's animators, steps applied and completions
# A script that fails (bad JSON, unknown clip, a refused step) counts as a failure.
play_failed=0
play_count=0
for script in "$samples"/scripts/*.json; do
    [ -f "$script" ] || continue
    name=$(basename "$script" .json)
    play_count=$((play_count + 1))
    if "$keyframe" play "$script" > "$out/$name.play.txt" 2> "$out/$name.play.log"; then
        ticks=$(grep -cE '^ +[0-9]+ +[0-9]+\.[0-9]+  ' "$out/$name.play.txt" || true)
        printf '%-4s %-24s %s.play.txt (%s ticks)\n' ok "scripts/$name" "$name" "$ticks"
        rm -f "$out/$name.play.log"
    else
        play_failed=$((play_failed + 1))
        printf '%-4s %-24s keyframe play failed; see %s\n' FAIL "scripts/$name" "$out/$name.play.log"
        sed 's/^/     | /' "$out/$name.play.log" | head -n 5
    fi
done
# ---- end of Play -----------------------------------------------------------------------------------------------

if [ "$count" -eq 0 ]; then
    echo "error: no exports found under $samples" >&2
    exit 1
fi
echo "$((count - failed))/$count samples converted and rendered into $out"
echo "$((play_count - play_failed))/$play_count scripts played into $out"
[ "$failed" -eq 0 ] && [ "$play_failed" -eq 0 ]
