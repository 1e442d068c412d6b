#!/usr/bin/env bash
# Prints the benchmark table from the files bench/run.sh leaves in STATSDIR:
#   ID.trainctl / ID.kubectl  one line per run: wall_ms user_ms sys_ms maxrss_kb exit (or FAIL)
#   ID.bytes                  response payload bytes of the scenario's requests
# Usage: bench/table.sh STATSDIR [SCALE RUNS]
set -euo pipefail
dir=$1 scale=${2:-?} runs=${3:-?}

# stat FILE FIELD: median of a column (cpu = user+sys); "FAIL" if a run failed, "-" if absent.
stat() {
  local f=$1 what=$2
  [ -s "$f" ] || { echo -; return; }
  if grep -q FAIL "$f" || awk '$5 != 0 { bad = 1 } END { exit !bad }' "$f"; then echo FAIL; return; fi
  awk -v w="$what" '{
      if (w == "wall") v = $1; else if (w == "cpu") v = $2 + $3; else v = $4 / 1024
      print v }' "$f" | sort -g | awk '{ a[NR] = $1 } END {
      if (NR % 2) m = a[(NR + 1) / 2]; else m = (a[NR / 2] + a[NR / 2 + 1]) / 2
      printf "%.1f\n", m }'
}

row() {  # ID LABEL TARGET-RATIO TARGET-TEXT CPU-TARGET RSS-TARGET-MB
  local id=$1 label=$2 tr=$3 ttext=$4 ctr=$5 rss_t=$6 kid=${7:-$1}
  local tw kw tc kcpu tm km bytes
  tw=$(stat "$dir/$id.trainctl" wall) kw=$(stat "$dir/$kid.kubectl" wall)
  tc=$(stat "$dir/$id.trainctl" cpu) kcpu=$(stat "$dir/$kid.kubectl" cpu)
  tm=$(stat "$dir/$id.trainctl" rss) km=$(stat "$dir/$kid.kubectl" rss)
  bytes=$(cat "$dir/$id.bytes" 2>/dev/null || echo -)
  awk -v label="$label" -v tw="$tw" -v kw="$kw" -v tc="$tc" -v kc="$kcpu" -v tm="$tm" -v km="$km" \
      -v bytes="$bytes" -v tr="$tr" -v ttext="$ttext" -v ctr="$ctr" -v rss_t="$rss_t" 'BEGIN {
    num = "^[0-9.]+$"
    ratio = (tw ~ num && kw ~ num && kw > 0) ? sprintf("%.3f", tw / kw) : "-"
    mb = (bytes ~ num) ? bytes / 1e6 : -1
    tmbs = (mb >= 0 && tw ~ num && tw > 0) ? sprintf("%.1f", mb / (tw / 1000)) : "-"
    kmbs = (mb >= 0 && kw ~ num && kw > 0) ? sprintf("%.1f", mb / (kw / 1000)) : "-"
    verdict = ""
    if (tr != "" && ratio != "-") verdict = verdict (ratio + 0 <= tr + 0 ? "met" : "MISSED") " " ttext
    if (ctr != "" && tc ~ num && kc ~ num && kc > 0) {
      cr = tc / kc
      verdict = verdict sprintf("; cpu %.3f %s <=%s", cr, cr <= ctr + 0 ? "met" : "MISSED", ctr)
    }
    if (rss_t != "" && tm ~ num) verdict = verdict sprintf("; rss %s <=%sMB", tm + 0 <= rss_t + 0 ? "met" : "MISSED", rss_t)
    if (tw == "FAIL" || kw == "FAIL") verdict = "run failed"
    printf "| %-30s | %9s | %9s | %6s | %8s | %8s | %7s | %7s | %8s | %7s | %7s | %s\n",
      label, tw, kw, ratio, tc, kc, tm, km, (mb >= 0 ? sprintf("%.2f", mb) : "-"), tmbs, kmbs, verdict " |"
  }'
}

echo
echo "trainctl vs kubectl (scale $scale, median of $runs runs; times in ms, RSS in MB)"
echo
printf "| %-30s | %9s | %9s | %6s | %8s | %8s | %7s | %7s | %8s | %7s | %7s | %s\n" \
  scenario "trainctl" "kubectl" ratio "tc cpu" "kc cpu" "tc RSS" "kc RSS" "payload" "tc MB/s" "kc MB/s" "target |"
printf "|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n" "$(printf -- '-%.0s' {1..32})" "-----------" "-----------" \
  "--------" "----------" "----------" "---------" "---------" "----------" "---------" "---------" "--------"
row 1-startup "1 start-up (version)" 0.1 "<=0.1" "" ""
row 2-list "2 list -A" 0.3 "<=0.3" 0.02 64
row 3-top "3 top node" 0.3 "<=0.3" "" 64
row 4-get "4 get JOB (1 kubectl get)" 1.2 "<=1.2" "" ""
row 4-get "4 get JOB (kubectl job+pods)" "" "" "" "" 4-get-pair
row 5-logs "5 logs -f" 1.0 "wall <=1.0" 0.5 ""
row 6-submit "6 submit --dry-run (seed 000)" "" "" "" ""
row 7-pytorch "7 list -A (PyTorchJobs)" 0.3 "<=0.3" 0.02 64
row 7-trainjobs "7 list -A (TrainJobs)" 0.3 "<=0.3" 0.02 64
echo
# The client's own throughput (payload / trainctl CPU, target >= 250 MB/s for list -A) and,
# for 7, trainctl's CPU per job of each kind.
for id in 2-list 3-top 7-pytorch 7-trainjobs; do
  tc=$(stat "$dir/$id.trainctl" cpu) bytes=$(cat "$dir/$id.bytes" 2>/dev/null || echo -)
  [[ "$tc" =~ ^[0-9.]+$ && "$bytes" =~ ^[0-9]+$ ]] || continue
  jobs=$(cat "$dir/7.jobs" 2>/dev/null || echo 0)
  awk -v id="$id" -v tc="$tc" -v b="$bytes" -v jobs="$jobs" 'BEGIN {
    line = sprintf("%s: payload / trainctl CPU = %.1f MB/s", id, b / 1e6 / (tc / 1000))
    if (id ~ /^7-/ && jobs > 0) line = line sprintf("; %.1f us CPU per job", tc * 1000 / jobs)
    print line }'
done
echo
echo "ratio = trainctl/kubectl median wall time; cpu = user+sys; payload = JSON/log bytes the"
echo "server sends for the scenario's requests (unpaged); MB/s = payload / median wall time."
