"""Held-out log loss of several models of a position (positions.py's file; the last 20% of games held
out). Needs scikit-learn, a research tool only: pip install scikit-learn.

    python fit.py data.pkl
"""

import pickle
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, log_loss
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

with open(sys.argv[1], "rb") as f:
    x, y, shipped, ids = pickle.load(f)
cut = np.quantile(ids, 0.8)
fit, test = ids < cut, ids >= cut
print(f"{len(y)} positions, {fit.sum()} to fit, {test.sum()} to test; the mover wins {y.mean():.3f}")


def show(name: str, p: np.ndarray) -> None:
    print(f"{name:28s} log loss {log_loss(y[test], p):.4f}  accuracy {accuracy_score(y[test], p > 0.5):.3f}")


show("the shipped learned value", np.clip(shipped[test], 1e-6, 1 - 1e-6))
scale = StandardScaler().fit(x[fit])
logit = LogisticRegression(max_iter=2000).fit(scale.transform(x[fit]), y[fit])
show("logit, raw features", logit.predict_proba(scale.transform(x[test]))[:, 1])
for depth in (3, 6):
    trees = HistGradientBoostingClassifier(max_iter=300, learning_rate=0.05, max_depth=depth, random_state=0)
    trees.fit(x[fit], y[fit])
    show(f"boosted trees, depth {depth}", trees.predict_proba(x[test])[:, 1])
net = MLPClassifier(hidden_layer_sizes=(32,), alpha=1e-3, early_stopping=True, random_state=0)
net.fit(scale.transform(x[fit]), y[fit])
show("network, 32 units", net.predict_proba(scale.transform(x[test]))[:, 1])
