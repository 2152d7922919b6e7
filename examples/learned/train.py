"""Train a policy for a tafel game on `tafel env`, by REINFORCE with a learned baseline (numpy only).

    python3 examples/learned/train.py --game hindersi-jass --opponents random --seconds 600

The learning seat plays against tafel's bots (`--opponents`) on `--tables` tables
stepped together (TafelVecEnv); each batch of finished episodes (deals) makes one
gradient step of the policy network (policy.py). Writes the policy (`--out`, .npz) and
the learning curve (`--curve`, CSV: one row per batch). The deals, the opponents' moves
and the policy's own sampling all follow --seed, so the same flags with `--batches N`
give the same policy; `--seconds` alone stops wherever the machine's speed has got to.
"""
import argparse
import csv
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
sys.path.insert(0, HERE)
from tafel_env import TafelVecEnv  # noqa: E402
from policy import Adam, Policy  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="hindersi-jass")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--rules", default=None)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--tables", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=600, help="stop after this much training time")
    ap.add_argument("--batches", type=int, default=None, help="stop after this many gradient steps (or --seconds)")
    ap.add_argument("--batch", type=int, default=512, help="episodes per gradient step")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(HERE, "policy.npz"))
    ap.add_argument("--curve", default=None, help="CSV of the learning curve")
    a = ap.parse_args()

    env = TafelVecEnv(a.tables, a.game, seat=0, opponents=a.opponents, players=a.players, rules=a.rules)
    h = env.hello
    scale = 157.0 if a.game != "vier-anderle" else 4.0
    pol = Policy(env.encoder.size, len(env.action_names), hidden=a.hidden, seed=a.seed,
                 meta={"game": h["game"], "players": h["players"], "rules": _rules(h["rules"]),
                       "actions": ",".join(h["actions"]), "opponents": a.opponents})
    opt = Adam(pol.p, lr=a.lr)
    # Hindersi-Jass charges each seat the points it took (J-5): those taken before a
    # move are the past's, which the move cannot change, so its return leaves them out
    # (REINFORCE's causality: less noise, the same expected gradient). Elsewhere none.
    if a.game == "hindersi-jass":
        def past(o):
            return -o["seatPoints"][o["seat"]]
    else:
        def past(o):
            return 0.0
    rng = np.random.default_rng(a.seed)
    obs, infos = env.reset(seed=a.seed)
    mask = infos["action_mask"]
    k = a.tables
    open_steps = [[] for _ in range(k)]
    X, M, A, R = [], [], [], []
    done_returns = []
    rows = []
    episodes = steps = 0
    start = time.time()
    it = 0
    while time.time() - start < a.seconds and (a.batches is None or it < a.batches):
        _, logp, _ = pol.forward(obs, mask)
        act = np.argmax(logp + rng.gumbel(size=logp.shape), axis=1)
        for i in range(k):
            open_steps[i].append((obs[i], mask[i], act[i], past(infos["obs"][i])))
        obs, rew, done, _, infos = env.step(act)
        mask = infos["action_mask"]
        steps += k
        for i in np.flatnonzero(done):
            ret = rew[i] / scale
            for x, m, ai, before in open_steps[i]:
                X.append(x)
                M.append(m)
                A.append(ai)
                R.append(ret - before / scale)
            open_steps[i] = []
            done_returns.append(rew[i])
        if len(done_returns) >= a.batch:
            it += 1
            stats = update(pol, opt, np.stack(X), np.stack(M), np.asarray(A), np.asarray(R, np.float32), a.entropy)
            episodes += len(done_returns)
            mean = float(np.mean(done_returns))
            se = float(np.std(done_returns, ddof=1) / np.sqrt(len(done_returns)))
            rows.append({"batch": it, "episodes": episodes, "steps": steps, "seconds": round(time.time() - start, 1),
                         "reward": round(mean, 3), "reward_se": round(se, 3), "entropy": round(stats, 4)})
            if it % 20 == 0:
                print("batch %d, %d episodes, %.0f s: reward %.2f +- %.2f" % (
                    it, episodes, time.time() - start, mean, 1.96 * se), file=sys.stderr, flush=True)
            X, M, A, R, done_returns = [], [], [], [], []
    env.close()
    pol.meta["trained_seconds"] = round(time.time() - start, 1)
    pol.meta["episodes"] = episodes
    pol.meta["batches"] = it
    pol.save(a.out)
    if a.curve:
        with open(a.curve, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    print("trained %d episodes (%d steps) in %.0f s; policy in %s" % (episodes, steps, time.time() - start, a.out),
          file=sys.stderr)


def _rules(rules):
    return ",".join("%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v) for k, v in sorted(rules.items()))


def update(pol, opt, X, M, A, R, beta, cv=0.5):
    """One REINFORCE step with the value head as baseline; returns the mean entropy."""
    p = pol.p
    n = len(A)
    h, logp, v = pol.forward(X, M)
    pi = np.exp(logp)
    adv = R - v
    adv = (adv - adv.mean()) / (adv.std() + 1e-6)
    ent = -(pi * np.where(M, logp, 0.0)).sum(axis=1)
    dz = pi.copy()
    dz[np.arange(n), A] -= 1.0
    dz *= adv[:, None]
    dz += beta * pi * (np.where(M, logp, 0.0) + ent[:, None])
    dz /= n
    dv = cv * (v - R) / n
    grads = {
        "W2": h.T @ dz,
        "b2": dz.sum(axis=0),
        "wv": h.T @ dv,
        "bv": np.array([dv.sum()], np.float32),
    }
    dh = dz @ p["W2"].T + np.outer(dv, p["wv"])
    dpre = dh * (1.0 - h * h)
    grads["W1"] = X.T @ dpre
    grads["b1"] = dpre.sum(axis=0)
    opt.step(p, {key: g.astype(np.float32) for key, g in grads.items()})
    return float(ent.mean())


if __name__ == "__main__":
    main()
