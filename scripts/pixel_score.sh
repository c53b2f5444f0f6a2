#!/bin/sh
# The pixel look score against the official web renderer: paint every public fixture as the
# reference page does (`a2ui_dump --png`, wgpu on Mesa, no GPU) into OUT_DIR and score the
# folder with the reference tool's compare_pixels.py (needs numpy and Pillow: set PYTHON to
# an interpreter that has them). The same metric, ported to Rust, is the CI test
# `pixels_match_the_official_web_renderer` in tests/conformance/fidelity.rs.
#
#   scripts/pixel_score.sh [REFERENCE_DIR [OUT_DIR]]   (defaults: ../shared/web-reference/public,
#                                                      target/pixel-score)
#   DARK=1 scripts/pixel_score.sh ...                  paint the dark scheme instead (not scored)
#   PYTHON=/path/to/venv/bin/python scripts/pixel_score.sh --json ...  (extra args go to the script)
set -eu
cd "$(dirname "$0")/.."
REF="${1:-../shared/web-reference/public}"
OUT="${2:-target/pixel-score}"
[ $# -ge 1 ] && shift
[ $# -ge 1 ] && shift
PYTHON="${PYTHON:-python3}"
mkdir -p "$OUT"
cargo build --quiet --features png -p egui_a2ui_tools --example a2ui_dump
DUMP="${CARGO_TARGET_DIR:-target}/debug/examples/a2ui_dump"
for geo in "$REF"/*.geometry.json; do
    name="$(basename "$geo" .geometry.json)"
    # The fixture (a path in this repository) and the viewport the reference was made with.
    read -r fixture size <<PARSED
$("$PYTHON" -c 'import json,sys; g=json.load(open(sys.argv[1])); v=g["viewport"]; print(g["fixture"], "%dx%d" % (v[0], v[1]))' "$geo")
PARSED
    keep=""
    case "$name" in contact_form_example*) keep="--keep-deleted" ;; esac
    dark=""
    [ -n "${DARK:-}" ] && dark="--dark"
    "$DUMP" --png "$size" $keep $dark "$fixture" "$OUT/$name.png"
done
"$PYTHON" "$REF/../compare_pixels.py" "$REF" "$OUT" "$@"
