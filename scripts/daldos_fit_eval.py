#!/usr/bin/env python3
"""Fit the Daldøs evaluation weights (crates/daldos/src/engine/eval.rs) by logistic
regression (Newton's method, no intercept: the features are antisymmetric)
on the CSV written by the `eval_features` example:

    cargo run --release -p dalkon-reproduce --example eval_features -- 3000 777 > feat.csv
    scripts/daldos_fit_eval.py feat.csv

Prints the weights of the five features and the mean log-likelihood, and the
EvalWeights they correspond to (material = w0, attack = w1 / w0,
defend = -w2 / w0, dalt = w3, race = w4)."""
import math
import random
import sys


def solve(a, b):
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                for c in range(i, n + 1):
                    m[r][c] -= f * m[i][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def main():
    rows = [list(map(float, line.split(","))) for line in open(sys.argv[1])]
    random.seed(1)
    random.shuffle(rows)
    rows = rows[:120000]
    xs = [r[1:] for r in rows]
    ys = [r[0] for r in rows]
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(12):
        g = [0.0] * k
        h = [[0.0] * k for _ in range(k)]
        ll = 0.0
        for x, y in zip(xs, ys):
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x))))
            ll += math.log(p if y else 1 - p)
            for i in range(k):
                g[i] += (y - p) * x[i]
                for j in range(k):
                    h[i][j] += p * (1 - p) * x[i] * x[j]
        w = [a + b for a, b in zip(w, solve(h, g))]
    print("weights", [round(a, 3) for a in w], "mean log-likelihood", round(ll / len(xs), 5))
    print(
        "EvalWeights: material %.2f attack %.2f defend %.2f dalt %.3f race %.2f"
        % (w[0], w[1] / w[0], -w[2] / w[0], w[3], w[4])
    )


main()
