#!/usr/bin/env bash
# Every check CI runs, in one script (after egui's scripts/check.sh and egui_tiles' check.sh):
# fmt, clippy in debug and release, each feature alone and all together, docs with and
# without private items, the README's test command, and cargo-deny. `.ci/run` calls it after
# its fresh-machine step. Run it from anywhere: `scripts/check.sh`.
#
# With CI_REQUIRE_DISPLAY_TESTS=1 (set by .ci/run, which installs Xvfb, Mesa and PulseAudio)
# it fails when a test that needs a display or Mesa's EGL reported `ignored` for lack of it,
# or when there is no `pulseaudio` to run the sound output test against.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Each traced command shows the seconds since the script began.
export PS4='+ [${SECONDS}s] '
set -x

export RUSTDOCFLAGS="-D warnings"

# Fast checks first.
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --all-features -- -D warnings
# Release too: code behind cfg(debug_assertions) differs (egui's Style::debug, for one). The
# library, binaries and examples are what a release build compiles; the tests are checked
# in debug above.
cargo clippy --workspace --lib --bins --examples --all-features --release -- -D warnings

# The library with no feature, each feature alone (read from Cargo.toml), and all of them.
features=$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "egui_a2ui":
        print(" ".join(f for f in sorted(p["features"]) if f != "default"))')
# The library alone per feature set (the tests and benches need --all-features, checked
# right after with every target).
cargo check -p egui_a2ui --lib --no-default-features
for feature in $features; do
    cargo check -p egui_a2ui --lib --no-default-features --features "$feature"
done
# (Every target with every feature was type-checked by the first clippy above.)

# Docs: the public API, then everything (broken links in private docs too).
cargo doc --workspace --no-deps --all-features
cargo doc --workspace --no-deps --all-features --document-private-items

# The README's test command (every default member: the library, the viewer, the tools).
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
cargo test --all-features 2>&1 | tee "$log"
set +x
if [ "${CI_REQUIRE_DISPLAY_TESTS:-0}" = 1 ]; then
    # The ignore reasons of tests/render/snapshots.rs and crates/egui_a2ui_viewer/tests/smoke.rs.
    if grep -E "ignored, (xvfb-run not found|Mesa EGL not found)" "$log"; then
        echo "check.sh: tests that need Xvfb or Mesa's EGL were ignored (see above)" >&2
        exit 1
    fi
fi
# The Linux sound output against a real PulseAudio server (a null sink, on a socket of its
# own; the test is `ignored` without one). Required in CI (.ci/run installs pulseaudio).
if command -v pulseaudio >/dev/null 2>&1; then
    pulse_dir="$(mktemp -d)"
    pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disable-shm=yes \
        --load=module-null-sink \
        --load="module-native-protocol-unix socket=$pulse_dir/native auth-anonymous=1" \
        >"$pulse_dir/log" 2>&1 &
    pulse_pid=$!
    trap 'rm -f "$log"; kill "$pulse_pid" 2>/dev/null || true; rm -rf "$pulse_dir"' EXIT
    for _ in $(seq 50); do [ -S "$pulse_dir/native" ] && break; sleep 0.1; done
    set -x
    PULSE_SERVER="unix:$pulse_dir/native" cargo test --all-features --test media -- --ignored pulse_sink
    set +x
elif [ "${CI_REQUIRE_DISPLAY_TESTS:-0}" = 1 ]; then
    echo "check.sh: pulseaudio not found: the sound output test cannot run" >&2
    exit 1
else
    echo "check.sh: pulseaudio not found: the sound output test was not run" >&2
fi
set -x

# Licences, banned crates and sources (deny.toml). Not `advisories`: it fetches the RustSec
# database from GitHub, and CI reaches package registries only.
cargo deny --all-features check licenses bans sources

set +x
echo "check.sh: all checks passed"
