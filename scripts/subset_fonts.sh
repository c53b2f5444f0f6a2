#!/usr/bin/env bash
# Rebuilds the bundled text and symbol fonts in assets/fonts/ from Debian's font packages.
# Needs apt-get (Debian/Ubuntu) and fontTools (`apt-get install python3-fonttools`).
# The outputs are committed; this script documents how they were made.
set -euo pipefail
cd "$(dirname "$0")/.."
out=assets/fonts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download fonts-roboto-unhinted fonts-dejavu-core fonts-noto-core >/dev/null)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/x"; done
py=/usr/bin/python3
subset() { "$py" -m fontTools.subset "$@" --layout-features='*' --no-hinting --drop-tables+=FFTM; }

# Roboto (Apache-2.0), the reference page's text font: Latin, Latin Extended, IPA, combining
# marks, Greek, Cyrillic, Vietnamese, punctuation, currency, letterlike, number forms and the
# maths operators it has. Drops Greek Extended and a few historic blocks (~1/3 of the file).
latin='U+0000-024F,U+0250-02FF,U+0300-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2000-206F,U+20A0-20CF,U+2100-214F,U+2150-218F,U+2200-22FF,U+25CA,U+FB00-FB06,U+FEFF,U+FFFD'
roboto="$work/x/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF"
mkdir -p "$out/roboto"
subset "$roboto/Roboto-Regular.ttf" --unicodes="$latin" --output-file="$out/roboto/Roboto-Regular.ttf"
subset "$roboto/Roboto-Bold.ttf" --unicodes="$latin" --output-file="$out/roboto/Roboto-Bold.ttf"

# DejaVu Sans (Bitstream Vera licence, DejaVu changes public domain): the symbol blocks
# agents use (arrows, maths, technical, shapes, misc symbols, dingbats, enclosed
# alphanumerics, box drawing) plus the invisible joiners and variation selectors.
symbols='U+200B-200D,U+2060,U+2070-209F,U+20A0-20CF,U+2100-214F,U+2150-218F,U+2190-21FF,U+2200-22FF,U+2300-23FF,U+2460-24FF,U+2500-257F,U+2580-259F,U+25A0-25FF,U+2600-26FF,U+2700-27BF,U+27C0-27FF,U+2900-297F,U+2980-29FF,U+2B00-2BFF,U+FE00-FE0F'
mkdir -p "$out/symbols"
subset "$work/x/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" --unicodes="$symbols" \
    --output-file="$out/symbols/DejaVuSans-Symbols.ttf"

# Noto Sans Symbols 2 (OFL-1.1): only what Roboto and the DejaVu subset lack in
# U+2000-2BFF (media controls ⏩⏸, watch/hourglass ⌚⌛, weather ⛅⛈, ⭐ ⭕ ❓ ❗...),
# without Braille and control pictures.
noto="$work/x/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"
gap=$("$py" - "$noto" "$out/roboto/Roboto-Regular.ttf" "$out/symbols/DejaVuSans-Symbols.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
noto, *have = sys.argv[1:]
covered = set().union(*(TTFont(f).getBestCmap() for f in have))
gap = sorted(c for c in TTFont(noto).getBestCmap()
             if 0x2000 <= c < 0x2C00 and c not in covered
             and not 0x2400 <= c < 0x2460 and not 0x2800 <= c < 0x2900)
print(",".join("U+%04X" % c for c in gap))
PY
)
subset "$noto" --unicodes="$gap" --output-file="$out/symbols/NotoSansSymbols2-Subset.ttf"
ls -l "$out/roboto" "$out/symbols"
