"""Steps per second of the learning environment (docs/env.md), and where the time goes.

    python3 bench/env_bench.py --game hindersi-jass --tables 1,16,64 --steps 20000 --rounds 3

A step is one decision of the learning seat on each table (K tables: K steps per
message), with tafel's random bots at the other seats and the learner choosing
uniformly among the legal actions (Python's random). Per configuration, the median over
rounds of: steps per second; the share of the wall time spent in Python (the client's
encoding of observations and masks, JSON, the random choice: everything outside the
wait for tafel's answer), in the pipe (an echo process that answers each message with
a line of the size of tafel's answers: the cost of moving the bytes and waking the
processes), and in tafel (the wait, less the pipe).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients", "python"))
import tafel_env  # noqa: E402

# Answers each line with the line it was given at start (blocking reads, as tafel env does).
ECHO = r"""
const fs = require('fs');
const reply = Buffer.from(process.argv[1] + '\n');
const buf = Buffer.alloc(1 << 16);
let rest = '';
for (;;) {
  let n;
  try { n = fs.readSync(0, buf, 0, buf.length, null); } catch (e) { if (e.code === 'EAGAIN') continue; throw e; }
  if (n === 0) break;
  rest += buf.toString('utf8', 0, n);
  let nl;
  while ((nl = rest.indexOf('\n')) >= 0) { rest = rest.slice(nl + 1); fs.writeSync(1, reply); }
}
"""


class Timed(tafel_env.Connection):
    """A connection that adds up the time spent waiting for tafel's answers."""

    waited = 0.0

    def send(self, msg):
        line = (json.dumps(msg, separators=(",", ":")) + "\n").encode()
        t = time.perf_counter()
        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        raw = self.proc.stdout.readline()
        self.waited += time.perf_counter() - t
        self.bytes_in += len(raw)
        self.bytes_out += len(line)
        return json.loads(raw)


def run(game, k, steps, seed):
    tafel_env.Connection = Timed
    env = tafel_env.TafelVecEnv(k, game, seat=0, opponents="random", seed=seed)
    tafel_env.Connection = Timed.__mro__[1]
    rng = random.Random(seed)
    obs, infos = env.reset(seed=seed)
    env.conn.waited = 0.0
    env.conn.bytes_in = env.conn.bytes_out = 0
    messages = steps // k
    t = time.perf_counter()
    for _ in range(messages):
        acts = [rng.choice([i for i, m in enumerate(mask) if m]) for mask in infos["action_mask"]]
        obs, rew, done, trunc, infos = env.step(acts)
    wall = time.perf_counter() - t
    waited = env.conn.waited
    out_size, in_size = env.conn.bytes_out / messages, env.conn.bytes_in / messages
    env.close()
    return {"steps_s": messages * k / wall, "wall": wall, "waited": waited, "messages": messages,
            "in_size": in_size, "out_size": out_size}


def pipe_cost(messages, in_size, out_size):
    """Seconds for `messages` round trips of these sizes through an echo process."""
    reply = json.dumps({"pad": "x" * max(0, int(in_size) - 11)}, separators=(",", ":"))
    proc = subprocess.Popen(["node", "-e", ECHO, reply], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    line = (json.dumps({"pad": "y" * max(0, int(out_size) - 11)}, separators=(",", ":")) + "\n").encode()
    t = time.perf_counter()
    for _ in range(messages):
        proc.stdin.write(line)
        proc.stdin.flush()
        proc.stdout.readline()
    took = time.perf_counter() - t
    proc.stdin.close()
    proc.wait()
    return took


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="hindersi-jass")
    ap.add_argument("--tables", default="1,16,64")
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    ks = [int(x) for x in a.tables.split(",")]
    results = {k: [] for k in ks}
    for r in range(a.rounds):  # alternate the configurations within each round
        for k in ks:
            m = run(a.game, k, a.steps, seed=r + 1)
            pipe = min(pipe_cost(m["messages"], m["in_size"], m["out_size"]), m["waited"])
            m["python"] = (m["wall"] - m["waited"]) / m["wall"]
            m["pipe"] = pipe / m["wall"]
            m["tafel"] = (m["waited"] - pipe) / m["wall"]
            results[k].append(m)
            print("round %d, %d tables: %.0f steps/s" % (r + 1, k, m["steps_s"]), file=sys.stderr, flush=True)
    print("game %s, random opponents, %d steps per run, median of %d rounds" % (a.game, a.steps, a.rounds))
    print("| tables | steps/s (rounds) | bytes per answer | tafel | pipe | Python |")
    print("|---:|---:|---:|---:|---:|---:|")
    for k in ks:
        rs = results[k]
        med = lambda key: statistics.median(x[key] for x in rs)  # noqa: E731
        print("| %d | %s (%s) | %s | %.0f%% | %.0f%% | %.0f%% |" % (
            k, format(round(med("steps_s")), ","), ", ".join(format(round(x["steps_s"]), ",") for x in rs),
            format(round(med("in_size")), ","), 100 * med("tafel"), 100 * med("pipe"), 100 * med("python")))


if __name__ == "__main__":
    main()
