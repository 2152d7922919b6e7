"""The learned policy: a small network from tafel_env's observation vector to a move.

x -> h = tanh(W1 x + b1) -> logits = W2 h + b2 over the actions (illegal ones masked out),
and a value v = wv . h + bv (the baseline of training). numpy only.
"""
import numpy as np


class Policy:
    def __init__(self, size, actions, hidden=128, seed=0, meta=None):
        rng = np.random.default_rng(seed)
        self.p = {
            "W1": rng.normal(0, 1 / np.sqrt(size), (size, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": rng.normal(0, 0.01, (hidden, actions)).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
            "wv": np.zeros(hidden, np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.meta = dict(meta or {})

    def forward(self, x, mask):
        """Hidden layer, masked log-probabilities and values of a batch (rows of x, mask)."""
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        logits = h @ self.p["W2"] + self.p["b2"]
        logits = np.where(mask, logits, -1e9)
        logits = logits - logits.max(axis=1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        v = h @ self.p["wv"] + self.p["bv"][0]
        return h, logp, v

    def greedy(self, x, mask):
        _, logp, _ = self.forward(x[None, :], mask[None, :])
        return int(np.argmax(logp[0]))

    def save(self, path):
        meta = {"meta_" + k: np.array(v) for k, v in self.meta.items()}
        np.savez(path, **self.p, **meta)

    @classmethod
    def load(cls, path):
        data = np.load(path, allow_pickle=False)
        pol = cls.__new__(cls)
        pol.p = {k: data[k] for k in ("W1", "b1", "W2", "b2", "wv", "bv")}
        pol.meta = {k[5:]: data[k].tolist() for k in data.files if k.startswith("meta_")}
        return pol


class Adam:
    def __init__(self, params, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params, grads):
        self.t += 1
        for k, g in grads.items():
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            mh = self.m[k] / (1 - self.b1 ** self.t)
            vh = self.v[k] / (1 - self.b2 ** self.t)
            params[k] -= (self.lr * mh / (np.sqrt(vh) + self.eps)).astype(params[k].dtype)
