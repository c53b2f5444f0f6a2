#!/usr/bin/env bash
# Run the libFuzzer campaign over the three targets in fuzz/ (needs nightly and cargo-fuzz:
# `cargo install cargo-fuzz`).
#
#   scripts/fuzz.sh stream_apply 3600      # one target for N seconds
#   scripts/fuzz.sh all 1800               # the three targets one after the other
#   MAX_LEN=4096 scripts/fuzz.sh render_frame 600
#   MAX_LEN=4096 RUNS=10000000 scripts/fuzz.sh stream_apply 36000   # stop after N executions
#
# The working corpus (fuzz/corpus/<target>, git-ignored) starts from the small seed corpus
# kept in the repo (fuzz/seeds/<target>) plus the official fixtures (tests/data/a2ui/**:
# streams for stream_apply and render_frame, formatString templates for format_string).
# One in-process fuzzing loop (no -jobs/-fork: one worker, and its final stats land in the log);
# each run ends by itself (-max_total_time). Logs go to
# ${FUZZ_LOG_DIR:-/tmp}/fuzz-<target>.log; the executions are libFuzzer's final
# `stat::number_of_executed_units`. Crash inputs land in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${1:?usage: scripts/fuzz.sh <stream_apply|render_frame|format_string|sse_framer|a2a_events|agui_events|express_compile|image_load|all> <seconds>}
secs=${2:-600}
logdir=${FUZZ_LOG_DIR:-/tmp}
# Sanitizer: none by default. The crate forbids `unsafe`, so AddressSanitizer would only
# slow the search down; panics, stack overflows, timeouts and OOMs are still caught.
sanitizer=${SANITIZER:-none}

seed_corpus() {
  local t=$1 dir="$root/fuzz/corpus/$1"
  mkdir -p "$dir"
  cp -n "$root/fuzz/seeds/$t/"* "$dir/" 2>/dev/null || true
  case "$t" in
    stream_apply | render_frame)
      find "$root/tests/data/a2ui" "$root/tests/data/conformance/cases" -type f \
        \( -name '*.json' -o -name '*.jsonl' \) -size -64k | while read -r f; do
        cp -n "$f" "$dir/fixture-$(printf '%s' "${f#"$root"/}" | tr '/' '_')"
      done
      ;;
    format_string)
      python3 - "$root/tests/data/functions/cases.json" "$dir" <<'PY'
import json, sys, hashlib
cases = json.load(open(sys.argv[1]))
for c in cases:
    v = c.get("args", {}).get("value")
    if c.get("call") == "formatString" and isinstance(v, str) and len(v) <= 4096:
        name = "case-" + hashlib.sha1(v.encode()).hexdigest()[:12]
        open(f"{sys.argv[2]}/{name}", "w").write(v)
PY
      ;;
  esac
}

run() {
  local t=$1 max_len
  case "$t" in
    stream_apply) max_len=${MAX_LEN:-65536} ;;
    render_frame) max_len=${MAX_LEN:-16384} ;;
    format_string) max_len=${MAX_LEN:-4096} ;;
    sse_framer | a2a_events | agui_events | express_compile) max_len=${MAX_LEN:-16384} ;;
    image_load) max_len=${MAX_LEN:-65536} ;;
    *) echo "unknown target $t" >&2; exit 2 ;;
  esac
  seed_corpus "$t"
  mkdir -p "$root/fuzz/artifacts/$t"
  local log="$logdir/fuzz-$t.log"
  echo "fuzzing $t for ${secs}s (max_len $max_len), log $log" >&2
  # `-O` with overflow checks kept: cargo-fuzz's default build also turns on debug
  # assertions, and egui's debug builds record the text of every widget `Id` ever made in a
  # global map. Each fuzzed store's surfaces get fresh ids, so render_frame grew past 1 GB in
  # five minutes and would hit the RSS limit below as a false "out of memory". The crate has
  # no `debug_assert!`; arithmetic overflow still panics.
  (cd "$root/fuzz" && RUSTFLAGS="${RUSTFLAGS:-} -C overflow-checks=on" nice -n 10 \
    cargo +nightly fuzz run -O --sanitizer "$sanitizer" "$t" \
    "corpus/$t" -- -max_len="$max_len" -rss_limit_mb=2048 -timeout=10 \
    -max_total_time="$secs" ${RUNS:+-runs="$RUNS"} -print_final_stats=1 \
    -artifact_prefix="$root/fuzz/artifacts/$t/") >"$log" 2>&1 || {
    echo "fuzz run of $t stopped with a finding; see $log and fuzz/artifacts/$t/" >&2
    grep -E 'stat::number_of_executed_units|SUMMARY|panicked' "$log" >&2 || true
    return 1
  }
  grep -E 'stat::number_of_executed_units|Done [0-9]+ runs' "$log" >&2 || true
}

if [ "$target" = all ]; then
  status=0
  for t in stream_apply render_frame format_string sse_framer a2a_events agui_events express_compile image_load; do
    run "$t" || status=1
  done
  exit $status
fi
run "$target"
