"""A client for the tafel bot protocol, version 1 (PROTOCOL.md at the top of tafel).

One file, standard library only, Python 3.9 or later. Subclass `Bot`, give it a name,
its options and a `move` method, and hand it to `run`:

    import tafel_bot

    class Lowest(tafel_bot.Bot):
        name = "lowest"

        def move(self, request):
            return min(request["legal"], key=tafel_bot.rank_value)

    tafel_bot.run(Lowest())

`run` reads tafel's requests on stdin and writes the answers on stdout; print your own
logs to stderr (`log`), never to stdout.
"""
import json
import random
import sys

PROTOCOL = 1

FRENCH_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "S", "H", "D")


# ---- cards ------------------------------------------------------------------


def is_tarock(card):
    """Whether `card` is a Vier-Anderle tarock (`T1` ... `T22`)."""
    return card.startswith("T") and card[1:].isdigit()


def suit(card):
    """The suit letter of a card (`C S H D`), or `T` for a tarock: `suit("10H") == "H"`."""
    return "T" if is_tarock(card) else card[-1]


def rank(card):
    """The rank of a card as RECORD.md writes it (`"10"`, `"Q"`), or a tarock's number (1..22)."""
    return int(card[1:]) if is_tarock(card) else card[:-1]


_PLAIN_ORDER = {"6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "C": 11.5, "Q": 12, "K": 13, "A": 14}
# Vier-Anderle's red pips run the other way: 4 lowest, 1 highest.
_RED_PIPS = {"4": 7, "3": 8, "2": 9, "1": 10}


def rank_value(card):
    """A number that orders the cards of a suit from low to high (tarocks above every suit card).

    French cards 6 < 7 < ... < 10 < J < Q < K < A; Vier-Anderle's suit cards black
    7 < 8 < 9 < 10, red 4 < 3 < 2 < 1, then J < C < Q < K; tarocks by number. The games'
    own orders of strength (trumps, Viersche's Alt and Kloei) are in RULES.md: this is
    the plain order, for simple bots.
    """
    if is_tarock(card):
        return 100 + rank(card)
    r = rank(card)
    return _RED_PIPS[r] if r in _RED_PIPS else _PLAIN_ORDER[r]


def of_suit(cards, letter):
    """The cards of `cards` in suit `letter` (`T` for tarocks), in their order."""
    return [c for c in cards if suit(c) == letter]


# ---- observations -----------------------------------------------------------


def led(request):
    """The first card of the current trick, or None before its lead (or when it lies face down: `??`)."""
    current = request.get("current") or []
    return current[0][1] if current and current[0][1] != "??" else None


def played(request):
    """Every card seen played in this deal so far, in order (no yes/no answers, no `??`)."""
    return [m for _, m in request.get("history", []) if m not in ("yes", "no", "??")]


# ---- options ----------------------------------------------------------------

_TYPES = ("int", "number", "boolean", "choice")


def option(key, type, default, description, min=None, max=None, choices=None):
    """One option the bot accepts, as the `bot` message declares it (PROTOCOL.md).

    `type` is "int", "number", "boolean" or "choice" (with `choices`); numbers may have
    inclusive bounds `min` and `max`. tafel sets options with `name:key=value` and
    `tafel tune` tunes numbers within their bounds.
    """
    if type not in _TYPES:
        raise ValueError("option %s: type must be one of %s" % (key, ", ".join(_TYPES)))
    if type == "choice" and (not choices or default not in choices):
        raise ValueError("option %s: a choice needs choices that include its default" % key)
    out = {"key": key, "type": type, "default": default}
    if choices is not None:
        out["choices"] = list(choices)
    if min is not None:
        out["min"] = min
    if max is not None:
        out["max"] = max
    out["description"] = description
    return out


# ---- the bot ----------------------------------------------------------------


class Bot:
    """A bot: override `move`, and `deal`, `result` if you keep anything per deal.

    `self.values` holds the options' values (defaults until tafel sets them),
    `self.table` the handshake (`game`, `players`, `rules`) and `self.rng` a
    `random.Random` seeded from the deal's `seed`: draw from it alone, and the bot plays
    each deal the same way in every run.
    """

    name = "bot"
    options = []

    def __init__(self):
        self.values = {o["key"]: o["default"] for o in self.options}
        self.table = {}
        self.rng = random.Random(0)

    def deal(self, request):
        """A deal begins: `request` is the seat's observation at its start."""

    def move(self, request):
        """Return one of `request["legal"]` (a card's name, or "yes" / "no")."""
        raise NotImplementedError

    def result(self, request):
        """The deal is over: `request` is the seat's observation at its end."""


# ---- the loop ---------------------------------------------------------------


def log(*parts):
    """A line on stderr (the referee keeps it in the bot's log file)."""
    print(*parts, file=sys.stderr, flush=True)


def send(message, out=None):
    """Write one message as one line and flush it."""
    out = out or sys.stdout
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def info(**fields):
    """An `info` line for the log, before the move's answer: `info(text="10H 0.61")`."""
    send(dict(type="info", **fields))


class ProtocolError(Exception):
    """A message that breaks the protocol."""


def _check_option(spec, value):
    kind = spec["type"]
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
        "choice": value in spec.get("choices", ()),
    }[kind]
    if ok and kind in ("int", "number"):
        ok = spec.get("min", value) <= value <= spec.get("max", value)
    if not ok:
        raise ProtocolError("option %s: %r is not a valid %s" % (spec["key"], value, kind))


def handle(bot, message):
    """Answer one message from tafel: the list of messages to write, or None after `quit`."""
    kind = message.get("type")
    if kind == "tafel":
        if message.get("protocol") != PROTOCOL:
            raise ProtocolError("protocol %r: this client speaks %d" % (message.get("protocol"), PROTOCOL))
        bot.table = message
        return [{"type": "bot", "protocol": PROTOCOL, "name": bot.name, "options": list(bot.options)}]
    if kind == "options":
        specs = {o["key"]: o for o in bot.options}
        for key, value in message.get("values", {}).items():
            if key not in specs:
                raise ProtocolError("options: unknown option %r" % key)
            _check_option(specs[key], value)
            bot.values[key] = value
        return []
    if kind == "deal":
        bot.rng = random.Random(int(message["seed"], 16))
        bot.deal(message)
        return []
    if kind == "move":
        move = bot.move(message)
        if move not in message["legal"]:
            raise ProtocolError("the bot chose %r, which is not in legal %r" % (move, message["legal"]))
        return [{"type": "play", "move": move}]
    if kind == "result":
        bot.result(message)
        return []
    if kind == "quit":
        return None
    raise ProtocolError("unknown message type %r" % kind)


def run(bot, stdin=None, stdout=None):
    """Play: answer tafel's messages on stdin until `quit` or the end of input.

    A message that breaks the protocol ends the program with one line on stderr and
    exit status 2.
    """
    stdin = stdin or sys.stdin
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            if not isinstance(message, dict):
                raise ProtocolError("not a JSON object")
            replies = handle(bot, message)
        except (ValueError, KeyError, ProtocolError) as e:
            log("%s: line %d: %s" % (bot.name, number, e))
            sys.exit(2)
        if replies is None:
            return
        for reply in replies:
            send(reply, stdout)
