#!/usr/bin/env bash
# A big run, for real: random Viersche with --db as shards, merged, then asked one
# question with tafel query. Not part of npm test (10^8 deals took 4.5 minutes on two
# cores and 34 GB of disk, nearly all of it the databases' parts); it prints what the run
# cost: wall time, CPU, peak memory, and disk per 10^6 deals for the journals and the
# databases.
#
#   scripts/soak.sh [DEALS [SHARDS [JOBS [DIR]]]]     (from the repository, after npm run build)
#
# DEALS (default 100000000) are split into SHARDS (default 16) shards of one run (seed
# "soak"), JOBS of them (default: the number of cores) at a time, each on one worker
# thread, as a cluster's array tasks would play them. DIR (default: a new temporary
# directory) keeps the shards' and the merged files; the script removes nothing.
# The question: what is the dealer's turn-up worth? The dealer's mean points by the
# turn-up's rank, with a 95% interval over the deals (each deal is its own group).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tafel=(node "$repo/dist/src/cli/main.js")
[ -f "$repo/dist/src/cli/main.js" ] || { echo "soak: build first (npm run build)" >&2; exit 2; }

deals=${1:-100000000}
shards=${2:-16}
jobs=${3:-$(nproc)}
dir=${4:-$(mktemp -d /tmp/tafel-soak.XXXXXX)}
mkdir -p "$dir"
echo "soak: $deals random Viersche deals as $shards shards, $jobs at a time, in $dir"

# One shard, timed: wall seconds, CPU seconds and peak resident kB into shard-i.time.
shard() {
  local i=$1
  /usr/bin/time -f '%e %U %S %M' -o "$dir/shard-$i.time" \
    "${tafel[@]}" run --game viersche --bots random --deals "$deals" --seed soak \
    --shard "$i/$shards" --workers 1 --journal "$dir/shard-$i.journal.jsonl" \
    --db "$dir/shard-$i.duckdb" --force >"$dir/shard-$i.log" 2>&1 ||
    { echo "soak: shard $i failed (see $dir/shard-$i.log)" >&2; return 1; }
}

start=$(date +%s.%N)
running=0
for ((i = 0; i < shards; i++)); do
  shard "$i" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n
    running=$((running - 1))
  fi
done
wait
played=$(date +%s.%N)

journals=()
for ((i = 0; i < shards; i++)); do journals+=("$dir/shard-$i.journal.jsonl"); done
/usr/bin/time -f '%e %U %S %M' -o "$dir/merge.time" \
  "${tafel[@]}" merge "${journals[@]}" --journal "$dir/run.journal.jsonl" --db "$dir/run.duckdb" \
  --out "$dir/run.csv" --force >"$dir/merge.log" 2>&1 ||
  { echo "soak: merge failed (see $dir/merge.log)" >&2; exit 1; }
merged=$(date +%s.%N)

question="SELECT regexp_replace(d.turnup::VARCHAR, '[CSHD]$', '') AS turnup_rank,
  count(*) AS deals,
  round(avg(s.points), 2) AS dealer_points,
  round(avg(s.points) - 1.96 * stddev_samp(s.points) / sqrt(count(*)), 2) AS low,
  round(avg(s.points) + 1.96 * stddev_samp(s.points) / sqrt(count(*)), 2) AS high
FROM deals d JOIN seats s USING (run, grp, rotation, deal)
WHERE s.seat = d.dealer
GROUP BY turnup_rank ORDER BY dealer_points DESC"
/usr/bin/time -f '%e %U %S %M' -o "$dir/query.time" \
  "${tafel[@]}" query "$dir/run.duckdb" "$question" | tee "$dir/question.txt"
asked=$(date +%s.%N)

# Totals: the shards' CPU summed, their peak the largest one's.
read -r cpu peak < <(cat "$dir"/shard-*.time | awk '{ c += $2 + $3; if ($4 > m) m = $4 } END { print c, m }')
per_million() { du -cb "$@" | tail -1 | awk -v d="$deals" '{ printf "%.1f MB", $1 / 1e6 / (d / 1e6) }'; }
per_million_kb() { du -cb "$@" | tail -1 | awk -v d="$deals" '{ printf "%.2f kB", $1 / 1e3 / (d / 1e6) }'; }
echo
echo "soak: play   $(awk -v a="$start" -v b="$played" 'BEGIN { printf "%.0f", b - a }') s wall, ${cpu%.*} s CPU, peak $((peak / 1024)) MB per shard"
echo "soak: merge  $(cut -d' ' -f1 "$dir/merge.time") s wall, peak $(($(cut -d' ' -f4 "$dir/merge.time") / 1024)) MB"
echo "soak: query  $(cut -d' ' -f1 "$dir/query.time") s wall, peak $(($(cut -d' ' -f4 "$dir/query.time") / 1024)) MB"
# A database is its catalogue (FILE.duckdb) and its parts (FILE.duckdb.parts/); the merged
# database's parts are hard links to the shards' (no second copy on disk).
echo "soak: disk per 10^6 deals: shard journals $(per_million_kb "$dir"/shard-*.journal.jsonl), merged journal $(per_million_kb "$dir/run.journal.jsonl")"
echo "soak: disk per 10^6 deals: shard databases $(per_million "$dir"/shard-*.duckdb "$dir"/shard-*.duckdb.parts) (catalogues $(per_million "$dir"/shard-*.duckdb)), merged catalogue $(per_million "$dir/run.duckdb")"
echo "soak: disk in all: $(du -sh "$dir" | cut -f1)"
echo "soak: total  $(awk -v a="$start" -v b="$asked" 'BEGIN { printf "%.0f", b - a }') s wall"
