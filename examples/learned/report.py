"""Writes results/learned.md from what reproduce.sh made (run from the top of tafel)."""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from policy import Policy  # noqa: E402


def table(w, prefix):
    w("| opponent | n groups | learned | opponent | learned - opponent | verdict |")
    w("|---|---:|---:|---:|---:|---|")
    for opp in ("random", "heuristic"):
        me, them, d = summary("results/%s-vs-%s.csv" % (prefix, opp), opp)
        hi, lo = float(d["ci95_high"]), float(d["ci95_low"])
        verdict = ("learned better (95%)" if hi < 0 else opp + " better (95%)" if lo > 0 else "no difference shown")
        w("| %s | %s | %s | %s | %s [%s, %s] | %s |" % (
            opp, d["n"], f(me["mean"]), f(them["mean"]), f(d["mean"]), f(lo), f(hi), verdict))
    w("")


def summary(path, opponent):
    """Per-bot means and the paired difference learned - opponent, on points per deal."""
    rows = [r for r in csv.DictReader(open(path)) if r["section"] == "deal" and r["metric"] == "points"]
    mean = {r["bot"]: r for r in rows if not r["opponent"]}
    diff = next(r for r in rows if r["bot"] == "learned" and r["opponent"] == opponent)
    return mean["learned"], mean[opponent], diff


def f(x):
    return "%.2f" % float(x)


def main():
    meta = Policy.load(os.path.join(HERE, "policy.npz")).meta
    curve = list(csv.DictReader(open("results/learned-curve.csv")))
    first = [float(r["reward"]) for r in curve[:10]]
    last = [float(r["reward"]) for r in curve[-10:]]
    out = []
    w = out.append
    w("# A learned bot for Hindersi-Jass, trained on `tafel env`\n")
    w("Regenerate everything here (training, curve, both evaluations, this page) with")
    w("`sh examples/learned/reproduce.sh` from the top of tafel after `npm run build`")
    w("(numpy needed; about 25 minutes of training and some minutes of evaluation on two cores).\n")
    w("**The policy** (examples/learned/policy.npz): a network from tafel_env's observation vector")
    w("(docs/env.md, 178 numbers at four seats) through 128 tanh units to the 38 actions, illegal")
    w("ones masked; trained by REINFORCE with a learned baseline (examples/learned/train.py) at")
    w("seat 0 of a 4-player table (rules partien=4) against tafel's `random` at the other three,")
    w("32 tables at a time (TafelVecEnv): %s deals in %s batches of 512, %s s of training (the"
      % (format(int(meta["episodes"]), ","), len(curve), meta["trained_seconds"]))
    w("limit was 900 s, on this machine's two cores shared with other work). Reward: minus the")
    w("points charged for the deal, the points already taken before a move left out of its return.")
    w("As a bot (examples/learned/learned_bot.py, a PROTOCOL.md program) it plays the most")
    w("probable legal move.\n")
    w("## Against random and heuristic, duplicate deals\n")
    w("Each line: `tafel run --bots learned,OPPONENT` on the same deals (seed `learned`), both")
    w("seatings (learned at seats 0 and 2, then 1 and 3); points charged per deal, lower is better;")
    w("the difference is paired per duplicate group, 95% t intervals.\n")
    table(w, "learned")
    w("Files: results/learned-vs-random.csv, results/learned-vs-heuristic.csv (tafel run's summaries).\n")
    w("## Learning curve\n")
    w("results/learned-curve.csv (one row per batch: deals so far, seconds, the batch's mean")
    w("reward and its standard error, the policy's entropy), drawn in results/learned-curve.svg.")
    w("The reward is per deal against the training opponents, with the policy sampling (not the")
    w("greedy bot above). A random seat at a table of random bots expects -157/4 = -39.25.")
    w("First 10 batches: %.2f; last 10: %.2f.\n" % (sum(first) / len(first), sum(last) / len(last)))
    w("![learning curve](learned-curve.svg)\n")
    hmeta = Policy.load(os.path.join(HERE, "policy-heuristic.npz")).meta
    hcurve = list(csv.DictReader(open("results/learned-heuristic-curve.csv")))
    w("## Trained against heuristic instead\n")
    w("The same training with `--opponents heuristic` for at most 600 s")
    w("(examples/learned/policy-heuristic.npz: %s deals in %s batches, %s s; tafel's heuristic"
      % (format(int(hmeta["episodes"]), ","), len(hcurve), hmeta["trained_seconds"]))
    w("bots take longer per move than random ones, so it saw fewer deals), played the same")
    w("way on 1000 duplicate groups (`--policy examples/learned/policy-heuristic.npz`):\n")
    table(w, "learned-heuristic")
    vs_h = float(summary("results/learned-heuristic-vs-heuristic.csv", "heuristic")[2]["mean"])
    vs_h_main = float(summary("results/learned-vs-heuristic.csv", "heuristic")[2]["mean"])
    vs_r = float(summary("results/learned-heuristic-vs-random.csv", "random")[2]["mean"])
    w("Against the heuristic it is %s the policy trained against random (%s points per deal"
      % ("closer than" if vs_h < vs_h_main else "no closer than", f(vs_h)))
    w("behind, against %s), and against random it is %s (%s)." % (
        f(vs_h_main), "better" if vs_r < 0 else "worse", f(vs_r)))
    w("What a policy learns is what pays against the opponents it trained with.")
    w("Its curve: results/learned-heuristic-curve.csv and .svg")
    w("(first 5 batches %.2f, last 5 %.2f per deal)." % (
        sum(float(r["reward"]) for r in hcurve[:5]) / 5, sum(float(r["reward"]) for r in hcurve[-5:]) / 5))
    print("\n".join(out))


if __name__ == "__main__":
    main()
