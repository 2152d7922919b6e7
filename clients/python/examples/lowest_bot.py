"""A rule bot for every tafel game: play the lowest legal card; answer every question alike.

Options: `play=lowest|highest` (which end of the legal cards), `answer=no|yes` (to
claims, declarations, schleipfen and objections).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tafel_bot  # noqa: E402


class LowestBot(tafel_bot.Bot):
    name = "py-lowest"
    options = [
        tafel_bot.option("play", "choice", "lowest", "which legal card to play", choices=["lowest", "highest"]),
        tafel_bot.option("answer", "choice", "no", "the answer to every yes/no question", choices=["no", "yes"]),
    ]

    def move(self, request):
        legal = request["legal"]
        if request["decision"] != "card":
            return self.values["answer"] if self.values["answer"] in legal else legal[0]
        pick = min if self.values["play"] == "lowest" else max
        # Ties (the same rank in two suits) go to the first in `legal`.
        return pick(legal, key=tafel_bot.rank_value)


if __name__ == "__main__":
    tafel_bot.run(LowestBot())
