"""Draw the learning curve of train.py (its --curve CSV) as an SVG, standard library only.

    python3 examples/learned/plot_curve.py results/learned-curve.csv results/learned-curve.svg \\
        --baseline -39.25 --label "random at a table of random bots"

Dots: each batch's mean reward (per deal, the game's metric signed so that more is
better); line: the mean of the last 10 batches; dashed: a baseline, if given.
"""
import argparse
import csv


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("svg")
    ap.add_argument("--baseline", type=float, default=None)
    ap.add_argument("--label", default="baseline")
    ap.add_argument("--title", default="Learning curve: reward per deal against the training opponents")
    a = ap.parse_args()
    with open(a.csv) as f:
        rows = list(csv.DictReader(f))
    xs = [int(r["episodes"]) for r in rows]
    ys = [float(r["reward"]) for r in rows]
    smooth = [sum(ys[max(0, i - 9):i + 1]) / len(ys[max(0, i - 9):i + 1]) for i in range(len(ys))]
    w, h, left, right, top, bottom = 720, 400, 70, 20, 40, 50
    lo = min(ys + ([a.baseline] if a.baseline is not None else []))
    hi = max(ys + ([a.baseline] if a.baseline is not None else []))
    pad = (hi - lo) * 0.05 or 1
    lo, hi = lo - pad, hi + pad
    xmax = max(xs)

    def px(x):
        return left + (w - left - right) * x / xmax

    def py(y):
        return top + (h - top - bottom) * (hi - y) / (hi - lo)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">'
           % (w, h), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="22" font-size="14">%s</text>' % (left, a.title)]
    for i in range(6):
        y = lo + (hi - lo) * i / 5
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, w - right, py(y), py(y)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.1f</text>' % (left - 6, py(y) + 4, y))
    for i in range(6):
        x = xmax * i / 5
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (px(x), h - bottom + 18, format(int(x), ",")))
    out.append('<text x="%d" y="%d" text-anchor="middle">deals played in training</text>'
               % ((left + w - right) // 2, h - 10))
    out.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">reward per deal</text>'
               % ((top + h - bottom) // 2, (top + h - bottom) // 2))
    for x, y in zip(xs, ys):
        out.append('<circle cx="%.1f" cy="%.1f" r="1.6" fill="#9ab"/>' % (px(x), py(y)))
    out.append('<polyline fill="none" stroke="#147" stroke-width="2" points="%s"/>'
               % " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in zip(xs, smooth)))
    if a.baseline is not None:
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#c33" stroke-dasharray="6 4"/>'
                   % (left, w - right, py(a.baseline), py(a.baseline)))
        out.append('<text x="%d" y="%.1f" fill="#c33" text-anchor="end">%s (%.2f)</text>'
                   % (w - right - 4, py(a.baseline) - 6, a.label, a.baseline))
    out.append('<text x="%d" y="%d" fill="#147">line: mean of the last 10 batches; dots: each batch (%s deals)</text>'
               % (left + 8, top + 14, rows[0]["episodes"]))
    out.append("</svg>")
    with open(a.svg, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
