"""The learned policy (train.py) as a bot program of the tafel bot protocol (PROTOCOL.md).

    tafel run --game hindersi-jass --program learned="python3 examples/learned/learned_bot.py" \\
        --bots learned,random

It plays the legal move of highest probability (greedy: no randomness, so every run
plays each deal the same way). It refuses (exit 2, one line on stderr) a table other
than the one it was trained for. `--policy FILE` names another policy file.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
sys.path.insert(0, HERE)
import tafel_bot  # noqa: E402
from tafel_env import Encoder  # noqa: E402
from policy import Policy  # noqa: E402


class Learned(tafel_bot.Bot):
    name = "learned"

    def __init__(self, path):
        super().__init__()
        self.policy = Policy.load(path)
        meta = self.policy.meta
        self.actions = meta["actions"].split(",")
        self.index = {a: i for i, a in enumerate(self.actions)}
        self.encoder = Encoder(meta["game"], int(meta["players"]), self.actions)

    def move(self, request):
        x = self.encoder.encode(request)
        mask = self.encoder.mask(request["legal"], self.index)
        return self.actions[self.policy.greedy(x, mask)]


def check_table(bot, hello):
    meta = bot.policy.meta
    rules = ",".join("%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v)
                     for k, v in sorted(hello.get("rules", {}).items()))
    want = (meta["game"], int(meta["players"]), meta["rules"])
    got = (hello.get("game"), hello.get("players"), rules)
    if got != want:
        tafel_bot.log("learned: trained for %s, %d players, rules %s; asked for %s, %s players, rules %s"
                      % (want + got))
        sys.exit(2)


def main():
    path = os.path.join(HERE, "policy.npz")
    if len(sys.argv) == 3 and sys.argv[1] == "--policy":
        path = sys.argv[2]
    elif len(sys.argv) != 1:
        tafel_bot.log("usage: learned_bot.py [--policy FILE]")
        sys.exit(2)
    bot = Learned(path)
    handle = tafel_bot.handle

    def checked(b, message):
        if message.get("type") == "tafel":
            check_table(b, message)
        return handle(b, message)

    tafel_bot.handle = checked
    tafel_bot.run(bot)


if __name__ == "__main__":
    main()
