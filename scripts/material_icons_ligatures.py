#!/usr/bin/env python3
"""Prints `name codepoint` for every ligature of the bundled Material Icons font, read from
the font itself (its GSUB ligatures and cmap), for tests/data/material-icons-ligatures.txt.

Usage: /usr/bin/python3 scripts/material_icons_ligatures.py > tests/data/material-icons-ligatures.txt
Needs fontTools (`apt-get install python3-fonttools`)."""
from fontTools.ttLib import TTFont

font = TTFont("assets/fonts/material-icons/MaterialIcons-Regular.ttf")
cmap = font.getBestCmap()
char_of = {g: chr(c) for c, g in cmap.items() if c < 0x80}
pua_of = {}
for c, g in cmap.items():
    if 0xE000 <= c <= 0xF8FF:
        pua_of.setdefault(g, c)
rows = {}
for lookup in font["GSUB"].table.LookupList.Lookup:
    if lookup.LookupType != 4:
        continue
    for sub in lookup.SubTable:
        for first, ligatures in sub.ligatures.items():
            for lig in ligatures:
                name = "".join(char_of.get(g, "?") for g in [first, *lig.Component])
                if "?" in name or lig.LigGlyph not in pua_of:
                    continue
                rows[name] = pua_of[lig.LigGlyph]
print("# name codepoint, from the GSUB ligatures and cmap of")
print("# assets/fonts/material-icons/MaterialIcons-Regular.ttf (scripts/material_icons_ligatures.py)")
for name in sorted(rows):
    print(f"{name} {rows[name]:04x}")
