#!/usr/bin/env bash
# The example reports in results/ (report-<game>.html): a small run of each game with its
# per-deal CSV, and that game's experiment results, drawn on one page by `tafel report`;
# the Viersche page adds a short tuning of its heuristic from a bad start (`tafel tune`).
# The runs are seeded, so the pages change only with tafel (and their time lines).
#
#   npm run build && scripts/report-examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tafel() { node dist/src/cli/main.js "$@"; }
runs=tmp/report-examples
rm -rf "$runs" && mkdir -p "$runs"

example() {
  local game=$1 title=$2
  shift 2
  local experiments=()
  while [[ $# -gt 0 && $1 != run ]]; do experiments+=("$1"); shift; done
  shift
  tafel run --game "$game" --seed report-1 --out "$runs/$game.csv" --deal-csv "$runs/$game.deals.csv" "$@" >/dev/null
  tafel report "$runs/$game.journal.jsonl" "${experiments[@]}" --title "$title" --out "results/report-$game.html" --force
}

tafel tune --game viersche --bot heuristic:aggression=0.9:smear=0.2 --tune aggression,smear --iterations 200 \
  --pairs 16 --seed report-1 --verify 2000 --out "$runs/tune-viersche.csv" >/dev/null
example viersche 'tafel report example: Viersche' results/ladder-viersche.csv "$runs/tune-viersche.journal.jsonl" \
  run --bots heuristic,montecarlo,random --deals 300
example hindersche 'tafel report example: Hindersche' results/ladder-hindersche.csv results/hindersche-marches.csv \
  run --bots pimc,heuristic --deals 2000 --sprt elo0=0,elo1=40
example hindersi-jass 'tafel report example: Hindersi-Jass' results/ladder-hindersi-jass.csv \
  run --bots pimc,heuristic --matches 16
example vier-anderle 'tafel report example: Vier-Anderle' results/ladder-vier-anderle.csv results/anderle-pot.csv \
  run --players 5 --bots heuristic,montecarlo,random --deals 400
rm -rf "$runs"
