"""A learning environment on tafel's engine: env protocol v1 (docs/env.md at the top of tafel).

One file, standard library only (numpy used when installed), Python 3.9 or later. tafel
plays the table (`tafel env`, started here as a subprocess) with its own bots at the
other seats and asks this side for the learning seat's decisions:

    from tafel_env import TafelEnv

    env = TafelEnv("hindersi-jass", seat=0, opponents="random")
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

- `TafelEnv`: one seat, the Gymnasium API (registered as "tafel/Tafel-v0" when
  gymnasium is importable, which it need not be).
- `TafelVecEnv(k, ...)`: k tables stepped together, one message each way per step,
  reset automatically at the end of each episode.
- `TafelAECEnv`: every seat learns (self-play), in the shape of PettingZoo's AEC API.

Observations: a flat vector (`Encoder`: its layout per game is in docs/env.md and in
`Encoder.layout`), and the protocol's readable object (PROTOCOL.md's observation, with
`legal`) in `info["obs"]`. Actions: an index into the game's pack (`action_names`), then
`no`, `yes`; `info["action_mask"]` marks the legal ones. Rewards: the game's headline
metric at the end of the episode (a deal; a match with `matches=True`), negated when
lower is better, so that more reward is always better; 0 at every other step.

Which tafel: the `TAFEL` environment variable (a command line, `node dist/src/cli/main.js`),
else this checkout's build (`../../dist/src/cli/main.js`), else `tafel` on the PATH.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

try:
    import numpy as np
except ImportError:  # the environment works without it: vectors are then lists
    np = None

ENV_PROTOCOL = 1


class TafelEnvError(RuntimeError):
    """tafel refused a message or stopped: its one line of explanation."""


# ---- spaces, described without gymnasium --------------------------------------


class Discrete:
    """The actions 0 .. n-1 (gymnasium.spaces.Discrete's shape)."""

    def __init__(self, n, seed=None):
        import random

        self.n = n
        self.shape = ()
        self.dtype = "int64"
        self._rng = random.Random(seed)

    def seed(self, seed=None):
        import random

        self._rng = random.Random(seed)

    def sample(self, mask=None):
        """A uniform action, among those `mask` marks when given."""
        if mask is None:
            return self._rng.randrange(self.n)
        allowed = [i for i, m in enumerate(mask) if m]
        return allowed[self._rng.randrange(len(allowed))]

    def contains(self, x):
        return isinstance(x, int) and 0 <= x < self.n

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Box:
    """Vectors of `shape` with entries in [low, high] (gymnasium.spaces.Box's shape)."""

    def __init__(self, low, high, shape, dtype="float32"):
        self.low, self.high, self.shape, self.dtype = low, high, shape, dtype

    def contains(self, x):
        return len(x) == self.shape[0] and all(self.low <= v <= self.high for v in x)

    def __repr__(self):
        return "Box(%s, %s, %s, %s)" % (self.low, self.high, self.shape, self.dtype)


try:
    import gymnasium as _gym
except ImportError:
    _gym = None


def _spaces(n_actions, size):
    if _gym is not None:
        return (
            _gym.spaces.Discrete(n_actions),
            _gym.spaces.Box(low=-1.0, high=1.0, shape=(size,), dtype=np.float32),
        )
    return Discrete(n_actions), Box(-1.0, 1.0, (size,))


# ---- the flat observation -----------------------------------------------------

_DECISIONS = ("card", "claim", "declare", "schleipfe", "object")
_SUITS = ("C", "S", "H", "D")


class Encoder:
    """The flat vector of an observation (docs/env.md, "The vector"), for one game and table.

    Seats are counted from the observer: entry r of a per-seat block is seat
    (seat + r) mod players, so the observer's own is first. `layout` lists the blocks:
    (name, offset, length). Every entry lies in [-1, 1].
    """

    def __init__(self, game, players, actions):
        self.game = game
        self.n = players
        self.pack = [a for a in actions if a not in ("no", "yes")]
        self.p = len(self.pack)
        self.index = {c: i for i, c in enumerate(self.pack)}
        n, p = players, self.p
        blocks = [
            ("hand", p),
            ("played", p),
            ("trick", p),
            ("leader", n),
            ("winning", n + 1),
            ("decision", len(_DECISIONS)),
            ("progress", 2),
            ("hand_sizes", n),
            ("points", n),
        ]
        if game != "vier-anderle":
            blocks += [("trump", 4), ("turnup", p), ("turnup_held", 1)]
        blocks += {
            "viersche": [("targets", 2), ("team_points", 2), ("flags", 2)],
            "hindersche": [("plays", n), ("deal_kind", 3), ("slate", n), ("offerer", n + 1), ("schleipfen", 1)],
            "hindersi-jass": [("partie_totals", n), ("partie_deal", 1)],
            "vier-anderle": [("pot", 3), ("declared_in", n), ("declared_out", n), ("led", 6)],
        }[game]
        self.layout = []
        at = 0
        for name, length in blocks:
            self.layout.append((name, at, length))
            at += length
        self.size = at
        self._at = {name: off for name, off, _ in self.layout}

    def encode(self, obs):
        """The vector of `obs` (a protocol observation): a numpy float32 array, or a list without numpy."""
        v = [0.0] * self.size
        at, idx, n = self._at, self.index, self.n
        me = obs["seat"]
        for c in obs["hand"]:
            v[at["hand"] + idx[c]] = 1.0
        o = at["played"]
        for _, m in obs["history"]:
            i = idx.get(m)
            if i is not None:
                v[o + i] = 1.0
        o = at["trick"]
        for _, c in obs["current"]:
            i = idx.get(c)
            if i is not None:
                v[o + i] = 1.0
        if obs["current"] or obs["decision"] == "card":
            v[at["leader"] + (obs["leader"] - me) % n] = 1.0
        w = obs["winning"]
        v[at["winning"] + ((w - me) % n if w >= 0 else n)] = 1.0
        d = obs["decision"]
        if d in _DECISIONS:
            v[at["decision"] + _DECISIONS.index(d)] = 1.0
        dealt = max(1, len(obs["dealt"]))
        o = at["progress"]
        v[o] = min(1.0, obs["trick"] / dealt)
        v[o + 1] = len(obs["current"]) / n
        sizes, o = obs["handSizes"], at["hand_sizes"]
        for r in range(n):
            v[o + r] = sizes[(me + r) % n] / dealt
        g = self.game
        if g == "vier-anderle":
            self._points(v, obs.get("seatTricks"), 4.0, me)
            self._anderle(v, obs, me)
        else:
            self._points(v, obs.get("seatPoints"), 157.0, me)
            v[at["trump"] + _SUITS.index(obs["trump"])] = 1.0
            v[at["turnup"] + idx[obs["turnup"]]] = 1.0
            v[at["turnup_held"]] = 1.0 if obs.get("turnupHeld") else 0.0
            if g == "viersche":
                self._viersche(v, obs, me)
            elif g == "hindersche":
                self._hindersche(v, obs, me)
            else:
                self._jass(v, obs, me)
        return np.asarray(v, dtype=np.float32) if np is not None else v

    def _points(self, v, values, scale, me):
        if values is None:
            return
        o, n = self._at["points"], self.n
        for r in range(n):
            v[o + r] = min(1.0, values[(me + r) % n] / scale)

    def _viersche(self, v, obs, me):
        at, team = self._at, me % 2
        v[at["targets"]] = obs["targets"][team] / 100.0
        v[at["targets"] + 1] = obs["targets"][1 - team] / 100.0
        v[at["team_points"]] = min(1.0, obs["teamPoints"][team] / 157.0)
        v[at["team_points"] + 1] = min(1.0, obs["teamPoints"][1 - team] / 157.0)
        v[at["flags"]] = 1.0 if obs["secondDeal"] else 0.0
        v[at["flags"] + 1] = 1.0 if obs["facedown"] else 0.0

    def _hindersche(self, v, obs, me):
        at, n = self._at, self.n
        for r in range(n):
            s = (me + r) % n
            v[at["plays"] + r] = 1.0 if obs["plays"][s] else 0.0
            v[at["slate"] + r] = min(1.0, obs["slate"][s] / 4.0)
        o = at["deal_kind"]
        v[o] = 1.0 if obs["phase"] == 2 else 0.0
        v[o + 1] = 1.0 if obs["kind"] == 1 else 0.0
        v[o + 2] = obs["playoffFor"] / 2.0
        f = obs["offerer"]
        v[at["offerer"] + ((f - me) % n if f >= 0 else n)] = 1.0
        v[at["schleipfen"]] = 1.0 if obs["schleipfen"] else 0.0

    def _jass(self, v, obs, me):
        at, n = self._at, self.n
        deals = max(1, obs["partieDeals"])
        for r in range(n):
            v[at["partie_totals"] + r] = min(1.0, obs["partieTotals"][(me + r) % n] / (157.0 * deals))
        v[at["partie_deal"]] = obs["partieDeal"] / deals

    def _anderle(self, v, obs, me):
        at, n = self._at, self.n
        scale = 4.0 * n
        v[at["pot"]] = min(1.0, obs["pot"] / scale)
        v[at["pot"] + 1] = min(1.0, obs["potBefore"] / scale)
        v[at["pot"] + 2] = 1.0 if obs["potType"] == 2 else 0.0
        for r in range(n):
            d = obs["declared"][(me + r) % n]
            v[at["declared_in"] + r] = 1.0 if d == 1 else 0.0
            v[at["declared_out"] + r] = 1.0 if d == 0 else 0.0
        v[at["led"] + obs["ledSuit"] + 2] = 1.0

    def mask(self, legal, actions_index):
        """The legal-action mask over the actions (pack, `no`, `yes`): 1 for legal, as a numpy int8 array
        (the type gymnasium's `Discrete.sample(mask=)` takes), or a list without numpy."""
        m = [0] * (self.p + 2)
        for name in legal:
            m[actions_index[name]] = 1
        return np.asarray(m, dtype=np.int8) if np is not None else m


# ---- the connection to `tafel env` --------------------------------------------


def tafel_command():
    """How to start tafel: $TAFEL, else this checkout's build, else `tafel` on the PATH."""
    if os.environ.get("TAFEL"):
        return shlex.split(os.environ["TAFEL"])
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "dist", "src", "cli", "main.js")
    if os.path.exists(built):
        return ["node", os.path.normpath(built)]
    if shutil.which("tafel"):
        return ["tafel"]
    raise TafelEnvError("tafel not found: set TAFEL (e.g. 'node /path/to/tafel/dist/src/cli/main.js') or build tafel")


class Connection:
    """One `tafel env` process: a JSON line out, a JSON line back."""

    def __init__(self, game, players=None, rules=None, seat=None, opponents=None, tables=1, seed=None,
                 matches=False, command=None):
        args = list(command or tafel_command()) + ["env", "--game", game, "--tables", str(tables)]
        if players is not None:
            args += ["--players", str(players)]
        if rules:
            args += ["--rules", rules if isinstance(rules, str) else ",".join("%s=%s" % kv for kv in rules.items())]
        if seat is None:
            args += ["--all-seats"]
        elif isinstance(seat, (list, tuple)):
            args += ["--seat", ",".join(map(str, seat))]
        else:
            args += ["--seat", str(seat)]
        if opponents is not None:
            args += ["--opponents", opponents]
        if seed is not None:
            args += ["--seed", str(seed)]
        if matches:
            args += ["--matches"]
        self.args = args
        self.bytes_out = 0
        self.bytes_in = 0
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.hello = self._read()
        if self.hello.get("type") != "env" or self.hello.get("protocol") != ENV_PROTOCOL:
            raise TafelEnvError("tafel env answered %r, not env protocol %d" % (self.hello, ENV_PROTOCOL))

    def _read(self):
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            err = self.proc.stderr.read().decode("utf-8", "replace").strip().splitlines()
            raise TafelEnvError(err[-1] if err else "tafel env exited (status %s)" % self.proc.returncode)
        self.bytes_in += len(line)
        return json.loads(line)

    def send(self, msg):
        line = (json.dumps(msg, separators=(",", ":")) + "\n").encode()
        self.bytes_out += len(line)
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # the reply's read says why
        return self._read()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b'{"type":"quit"}\n')
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()


class _Base:
    """What the three forms share: the connection, the encoder, the spaces."""

    def _open(self, **kw):
        self.conn = Connection(**kw)
        h = self.conn.hello
        self.hello = h
        self.action_names = h["actions"]
        self.action_index = {a: i for i, a in enumerate(self.action_names)}
        self.encoder = Encoder(h["game"], h["players"], self.action_names)
        self.action_space, self.observation_space = _spaces(len(self.action_names), self.encoder.size)
        self.higher_is_better = h["metric"]["higherIsBetter"]

    def _action(self, action):
        if isinstance(action, str):
            return self.action_index[action]
        return int(action)

    def _seed_text(self, seed):
        if seed is None:
            return None
        return seed if isinstance(seed, str) else int(seed)

    def _reset_entry(self, seed):
        """The table's first observation: a reset message when seeded or when no episode
        has begun by itself (tables reset themselves when an episode ends)."""
        entry = self._pending
        self._pending = None
        if seed is not None or entry is None:
            msg = {"type": "reset"}
            if seed is not None:
                msg["seed"] = self._seed_text(seed)
            entry = self.conn.send(msg)["tables"][0]
        return entry

    def _info(self, entry):
        obs = entry["obs"]
        return {"obs": obs, "legal": obs["legal"], "action_mask": self.encoder.mask(obs["legal"], self.action_index),
                "seat": entry["seat"]}

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_EnvBase = _gym.Env if _gym is not None else object


class TafelEnv(_Base, _EnvBase):
    """One learning seat against tafel's bots, with Gymnasium's API.

    `reset(seed=)` -> (obs, info); `step(action)` -> (obs, reward, terminated, truncated, info).
    `info`: `obs` (the protocol's observation, with `legal`), `legal`, `action_mask`, `seat`;
    at the end of an episode also `metric` (the game's metric for the seat, unsigned) and
    `group` (the episode's duplicate group: with one table, the deal of `tafel run`).
    """

    metadata = {"render_modes": []}

    def __init__(self, game="hindersi-jass", seat=0, opponents="random", players=None, rules=None, seed=None,
                 matches=False, observation="vector", command=None):
        self._open(game=game, players=players, rules=rules, seat=seat, opponents=opponents, tables=1, seed=seed,
                   matches=matches, command=command)
        self.seat = self.hello["seats"][0]
        if len(self.hello["seats"]) != 1:
            raise TafelEnvError("TafelEnv plays one seat; use TafelAECEnv for several")
        self.observation = observation
        self._pending = None
        self.render_mode = None

    def _obs(self, obs):
        return obs if self.observation == "dict" else self.encoder.encode(obs)

    def reset(self, seed=None, options=None):
        entry = self._reset_entry(seed)
        return self._obs(entry["obs"]), self._info(entry)

    def step(self, action):
        entry = self.conn.send({"type": "step", "actions": [self._action(action)]})["tables"][0]
        if not entry.get("done"):
            return self._obs(entry["obs"]), 0.0, False, False, self._info(entry)
        # The episode is over; tafel has begun the next one, which the next reset() returns.
        self._pending = entry
        final = dict(entry["final"])[self.seat]
        info = {"obs": final, "legal": [], "action_mask": self.encoder.mask([], self.action_index),
                "seat": self.seat, "metric": entry["metric"][self.seat], "group": entry["group"]}
        reward = entry["rewards"][self.seat]
        return self._obs(final), float(reward or 0.0), True, False, info


class TafelVecEnv(_Base):
    """`k` tables of one learning seat each, stepped together: one message each way per step.

    `reset(seed=)` -> (obs, infos); `step(actions)` -> (obs, rewards, terminated, truncated,
    infos), obs a (k, size) array (a list of lists without numpy). A table whose episode
    ends starts the next at once: its row of `obs` is then the new episode's first, and
    `infos["final_obs"][i]` / `infos["final_info"][i]` hold the one that ended (else None).
    `infos["action_mask"]` is (k, actions); `infos["obs"]` the readable observations.
    """

    def __init__(self, k, game="hindersi-jass", seat=0, opponents="random", players=None, rules=None, seed=None,
                 matches=False, command=None):
        self.num_envs = k
        self._open(game=game, players=players, rules=rules, seat=seat, opponents=opponents, tables=k, seed=seed,
                   matches=matches, command=command)
        self.seat = self.hello["seats"][0]
        self.single_action_space = self.action_space
        self.single_observation_space = self.observation_space

    def _batch(self, entries):
        enc, index = self.encoder, self.action_index
        obs = [enc.encode(e["obs"]) for e in entries]
        masks = [enc.mask(e["obs"]["legal"], index) for e in entries]
        if np is not None:
            obs, masks = np.stack(obs), np.stack(masks)
        return obs, {"obs": [e["obs"] for e in entries], "action_mask": masks}

    def reset(self, seed=None, options=None):
        msg = {"type": "reset"}
        if seed is not None:
            msg["seed"] = self._seed_text(seed)
        return self._batch(self.conn.send(msg)["tables"])

    def step(self, actions):
        entries = self.conn.send({"type": "step", "actions": [self._action(a) for a in actions]})["tables"]
        obs, infos = self._batch(entries)
        k = self.num_envs
        rewards, done = [0.0] * k, [False] * k
        final_obs, final_info = [None] * k, [None] * k
        for i, e in enumerate(entries):
            if e.get("done"):
                done[i] = True
                rewards[i] = float(e["rewards"][self.seat] or 0.0)
                fo = dict(e["final"])[self.seat]
                final_obs[i] = self.encoder.encode(fo)
                final_info[i] = {"obs": fo, "metric": e["metric"][self.seat], "group": e["group"]}
        infos["final_obs"], infos["final_info"] = final_obs, final_info
        if np is not None:
            rewards, done = np.asarray(rewards, dtype=np.float64), np.asarray(done)
            return obs, rewards, done, np.zeros(k, dtype=bool), infos
        return obs, rewards, done, [False] * k, infos


class TafelAECEnv(_Base):
    """Self-play: every seat learns (or the `seats` given), in the shape of PettingZoo's AEC API.

    Agents are "player_0" ... by seat. `agent_selection` is the seat to move; `last()` gives
    its (observation, cumulative reward, termination, truncation, info); `step(action)`
    plays for it. When the episode ends every agent is terminated with its reward and
    steps once more with None (PettingZoo's "dead step"), then `agents` is empty.
    """

    metadata = {"render_modes": [], "name": "tafel_aec_v0", "is_parallelizable": False}

    def __init__(self, game="hindersi-jass", players=None, rules=None, seats=None, opponents=None, seed=None,
                 matches=False, command=None):
        self._open(game=game, players=players, rules=rules, seat=seats, opponents=opponents, tables=1, seed=seed,
                   matches=matches, command=command)
        # PettingZoo's action_space(agent) and observation_space(agent) are methods here.
        self._spaces = (self.__dict__.pop("action_space"), self.__dict__.pop("observation_space"))
        self.possible_agents = ["player_%d" % s for s in self.hello["seats"]]
        self._seat_of = {a: int(a.split("_")[1]) for a in self.possible_agents}
        self._pending = None
        self.agents = []

    def action_space(self, agent):
        return self._spaces[0]

    def observation_space(self, agent):
        return self._spaces[1]

    def observe(self, agent):
        return self.encoder.encode(self._obs[agent])

    def reset(self, seed=None, options=None):
        entry = self._reset_entry(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._obs = {}
        self._take(entry)

    def _take(self, entry):
        agent = "player_%d" % entry["seat"]
        self._obs[agent] = entry["obs"]
        self.infos[agent] = self._info(entry)
        self.agent_selection = agent

    def last(self, observe=True):
        a = self.agent_selection
        return (self.observe(a) if observe else None, self._cumulative_rewards[a], self.terminations[a],
                self.truncations[a], self.infos[a])

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise ValueError("a terminated agent steps with None")
            self.agents.remove(a)
            del self._cumulative_rewards[a]
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._cumulative_rewards[a] = 0.0
        entry = self.conn.send({"type": "step", "actions": [self._action(action)]})["tables"][0]
        for b in self.agents:
            self.rewards[b] = 0.0
        if not entry.get("done"):
            self._take(entry)
            return
        self._pending = entry
        for s, fo in entry["final"]:
            b = "player_%d" % s
            self._obs[b] = fo
            r = entry["rewards"][s]
            self.rewards[b] = float(r or 0.0)
            self._cumulative_rewards[b] += self.rewards[b]
            self.terminations[b] = True
            self.infos[b] = {"obs": fo, "legal": [], "action_mask": self.encoder.mask([], self.action_index),
                             "seat": s, "metric": entry["metric"][s], "group": entry["group"]}
        self.agent_selection = self.agents[0]


if _gym is not None:
    try:
        _gym.register(id="tafel/Tafel-v0", entry_point="tafel_env:TafelEnv")
    except Exception as e:  # registered twice (a reload): harmless
        print("tafel_env: %s" % e, file=sys.stderr)
