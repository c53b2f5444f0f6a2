#!/usr/bin/env bash
# Run every bench's paired (side-by-side) measurement and print one summary table.
#
#   scripts/bench_summary.sh            # all benches: ingest frame list update memory
#   scripts/bench_summary.sh frame list # some of them
#   FULL=1 scripts/bench_summary.sh     # also run the criterion groups (slower)
#
# Each bench prints lines "A2UI-SUMMARY<TAB>bench<TAB>figure<TAB>value<TAB>target<TAB>verdict";
# ratios are measured interleaved in one process, so machine noise hits both sides alike.
set -euo pipefail
cd "$(dirname "$0")/.."
benches=("$@")
[ ${#benches[@]} -eq 0 ] && benches=(ingest frame list update memory)
if [ "${FULL:-0}" = 1 ]; then unset A2UI_BENCH_SUMMARY_ONLY; else export A2UI_BENCH_SUMMARY_ONLY=1; fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for b in "${benches[@]}"; do
  echo "== cargo bench --bench $b" >&2
  cargo bench --bench "$b" 2>/dev/null | tee -a "$out" | grep -v '^A2UI-SUMMARY' >&2 || true
done
echo
printf '%-8s | %-52s | %14s | %-8s | %s\n' bench figure value target verdict
printf '%s\n' "---------|------------------------------------------------------|----------------|----------|--------"
grep '^A2UI-SUMMARY' "$out" | while IFS=$'\t' read -r _ bench figure value target verdict; do
  printf '%-8s | %-52s | %14s | %-8s | %s\n' "$bench" "$figure" "$value" "$target" "$verdict"
done
