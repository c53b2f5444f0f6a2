#!/usr/bin/env bash
# Run every bench's paired (side-by-side) measurement and print one summary table.
#
#   scripts/bench_summary.sh            # all benches: ingest official_streams peer_ingest frame list update memory model_stream
#   scripts/bench_summary.sh frame list # some of them
#   FULL=1 scripts/bench_summary.sh     # also run the criterion groups (slower)
#
# Each bench prints lines "A2UI-SUMMARY<TAB>bench<TAB>figure<TAB>value<TAB>target<TAB>verdict";
# ratios are measured interleaved in one process, so machine noise hits both sides alike.
#
# A bench that fails to build, panics, exits non-zero or prints no summary line is listed
# as FAILS (with the tail of its cargo output), and the script exits with status 1.
set -euo pipefail
cd "$(dirname "$0")/.."
benches=("$@")
[ ${#benches[@]} -eq 0 ] && benches=(ingest official_streams peer_ingest frame list update memory model_stream)
if [ "${FULL:-0}" = 1 ]; then unset A2UI_BENCH_SUMMARY_ONLY; else export A2UI_BENCH_SUMMARY_ONLY=1; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()
for b in "${benches[@]}"; do
  echo "== cargo bench --bench $b" >&2
  status=0
  cargo bench --bench "$b" >"$tmp/$b.out" 2>"$tmp/$b.err" || status=$?
  grep -v '^A2UI-SUMMARY' "$tmp/$b.out" >&2 || true
  if [ "$status" -ne 0 ]; then
    echo "!! bench $b FAILS (cargo bench exit status $status); last lines of its stderr:" >&2
    tail -n 20 "$tmp/$b.err" >&2
    failed+=("$b")
  elif ! grep -q '^A2UI-SUMMARY' "$tmp/$b.out"; then
    echo "!! bench $b FAILS: it ran but printed no A2UI-SUMMARY line" >&2
    failed+=("$b")
  fi
done
echo
printf '%-8s | %-52s | %14s | %-8s | %s\n' bench figure value target verdict
printf '%s\n' "---------|------------------------------------------------------|----------------|----------|--------"
for b in "${benches[@]}"; do
  grep -h '^A2UI-SUMMARY' "$tmp/$b.out" 2>/dev/null | while IFS=$'\t' read -r _ bench figure value target verdict; do
    printf '%-8s | %-52s | %14s | %-8s | %s\n' "$bench" "$figure" "$value" "$target" "$verdict"
  done || true
done
for b in "${failed[@]+"${failed[@]}"}"; do
  printf '%-8s | %-52s | %14s | %-8s | %s\n' "$b" "(bench did not run to the end)" "-" "-" "FAILS"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo >&2
  echo "bench_summary: ${#failed[@]} bench(es) FAIL: ${failed[*]}" >&2
  exit 1
fi
