"""A random bot for every tafel game: any legal move, drawn from the deal's seed."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tafel_bot  # noqa: E402


class RandomBot(tafel_bot.Bot):
    name = "py-random"

    def move(self, request):
        return self.rng.choice(request["legal"])


if __name__ == "__main__":
    tafel_bot.run(RandomBot())
