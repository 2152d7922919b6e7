#!/bin/sh
# Regenerates results/learned*: trains the policy (examples/learned/policy.npz), draws its
# learning curve, plays it as a bot program against random and heuristic on duplicate
# deals, and writes results/learned.md. Run from the top of tafel, after `npm run build`.
# TRAIN_SECONDS (default 900) bounds the training; GROUPS (default 2000) the duplicate
# deals of each evaluation.
set -e
TRAIN_SECONDS=${TRAIN_SECONDS:-900}
GROUPS=${GROUPS:-2000}
TAFEL=${TAFEL:-"node dist/src/cli/main.js"}
BOT='learned=python3 examples/learned/learned_bot.py'

python3 examples/learned/train.py --game hindersi-jass --opponents random --tables 32 \
  --seconds "$TRAIN_SECONDS" --seed 1 --out examples/learned/policy.npz --curve results/learned-curve.csv
python3 examples/learned/plot_curve.py results/learned-curve.csv results/learned-curve.svg \
  --baseline -39.25 --label "a random seat's expectation (157/4)"
$TAFEL run --game hindersi-jass --program "$BOT" --bots learned,random --deals "$GROUPS" --seed learned \
  --workers 2 --out results/learned-vs-random.csv --force
$TAFEL run --game hindersi-jass --program "$BOT" --bots learned,heuristic --deals "$GROUPS" --seed learned \
  --workers 2 --out results/learned-vs-heuristic.csv --force
# The same against heuristic opponents (at most 600 s), evaluated on 1000 groups.
python3 examples/learned/train.py --game hindersi-jass --opponents heuristic --tables 32 \
  --seconds 600 --seed 1 --out examples/learned/policy-heuristic.npz --curve results/learned-heuristic-curve.csv
python3 examples/learned/plot_curve.py results/learned-heuristic-curve.csv results/learned-heuristic-curve.svg \
  --title "Learning curve against three heuristic bots: reward per deal"
BOT_H='learned=python3 examples/learned/learned_bot.py --policy examples/learned/policy-heuristic.npz'
for OPP in random heuristic; do
  $TAFEL run --game hindersi-jass --program "$BOT_H" --bots learned,$OPP --deals 1000 --seed learned \
    --workers 2 --out results/learned-heuristic-vs-$OPP.csv --force
done
rm -f results/learned*-vs-*.journal.jsonl results/*.learned.w*.log
python3 examples/learned/report.py > results/learned.md
