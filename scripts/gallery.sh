#!/bin/sh
# Side-by-side gallery for the README: the official web renderer (@a2ui/lit 0.11.0, left)
# and egui_a2ui (right) on four fixtures, 420x560 each, written to
# assets/screenshots/gallery_*.png. Our side is rendered headless through wgpu (the
# `snapshots` feature; Mesa's GL backend works without a GPU).
#
#   scripts/gallery.sh [WEB_REFERENCE_PUBLIC_DIR]   (default: ../shared/web-reference/public)
set -eu
cd "$(dirname "$0")/.."
REF="${1:-../shared/web-reference/public}"
A2UI_WEB_REFERENCE="$(cd "$REF" && pwd)" \
  cargo test --features snapshots --test render -- --ignored snapshots::write_reference_gallery
ls -1 assets/screenshots/gallery_*.png
