#!/usr/bin/env bash
# The soak (not in CI): the AG-UI and MCP host helpers against agents that stream for
# MINUTES (default 60), drawn every frame, RSS sampled every minute (examples/soak.rs).
# Needs the peers' venv (.ci/run step 3 makes it). Writes target/soak-<date>.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-60}"
export PKG_CONFIG=/bin/false PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH=
cargo build --example viewer --example soak --features a2a,agui,mcp-http
out="target/soak-$(date +%Y%m%d-%H%M).csv"
target/debug/examples/soak --minutes "$minutes" --python tests/peers/.venv/bin/python \
    --demo target/debug/examples/viewer | tee "$out"
echo "soak: $out"
