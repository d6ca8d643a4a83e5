"""Strategy trees as JSON, and their check by replaying every secret.

A tree file is one JSON object::

    {"format": "hamle-mastermind-tree", "version": 1,
     "variant": {"pegs": 4, "colours": 6, "repeat": true},
     "strategy": "optimal", "max_guesses": null,
     "root": NODE}

where a NODE is ``{"guess": "1123", "answers": {"0 0": NODE, "0 1": NODE, ...}}``: the
code to guess (its digits) and the node to go on with after each answer (black and
white separated by a space) but the one that solves. A node without ``answers`` (or with
none) is a leaf: its guess must be the secret. ``verify`` needs nothing else, so trees
written by other solvers can be checked as well.

>>> from hamle.mastermind.optimal import solve
>>> data = tree_json(solve(Variant(2, 2)).tree, Variant(2, 2), "optimal")
>>> data["root"]["guess"], sorted(data["root"]["answers"])
('11', ['0 0', '1 0'])
>>> verify(data).total
8
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from time import perf_counter

import numpy as np

from .codes import Variant
from .errors import MastermindError, VariantError
from .evaluate import Evaluation
from .history import History

FORMAT, VERSION = "hamle-mastermind-tree", 1


class TreeError(MastermindError):
    """A tree file that is not a strategy tree, or one that fails a secret."""


@dataclass(frozen=True)
class Check(Evaluation):
    """What replaying every secret through a tree gave (``first_guess``: the root's,
    ``seconds``: the replay's)."""

    def as_dict(self) -> dict:
        return {
            "strategy": self.strategy,
            "variant": self.variant.describe(),
            "secrets": sum(self.histogram.values()),
            "total": self.total,
            "average": round(self.average, 4),
            "worst": self.maximum,
            "histogram": {str(n): self.histogram[n] for n in sorted(self.histogram)},
        }


def tree_json(node, variant: Variant, strategy: str, max_guesses: int | None = None) -> dict:
    """The tree file of a tree of ``optimal.Node`` (guess, ((answer, child), ...))."""

    def encode(node) -> dict:
        out: dict = {"guess": variant.format(node.guess)}
        if node.children:
            out["answers"] = {
                "{} {}".format(*variant.split(answer)): encode(child)
                for answer, child in node.children
            }
        return out

    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": {"pegs": variant.pegs, "colours": variant.colours, "repeat": variant.repeat},
        "strategy": strategy,
        "max_guesses": max_guesses,
        "root": encode(node),
    }


def strategy_tree(strategy, variant: Variant):
    """The whole decision tree of any strategy: its guess at every history it meets."""
    from .optimal import Node, _parts

    def grow(history: History, cands: np.ndarray) -> Node:
        if len(cands) == 1:
            return Node(int(cands[0]), ())
        guess = strategy.next_guess(history)
        parts = _parts(variant.feedback(guess, cands), cands, variant.solved)
        return Node(guess, tuple((a, grow(history.then(guess, a), part)) for a, part in parts))

    return grow(History(variant), np.arange(variant.size))


def verify(data: dict) -> Check:
    """Replay every secret of the tree's variant through it; TreeError naming the first
    secret that is not found, or the node that is malformed."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TreeError(f"not a Mastermind strategy tree: 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise TreeError(f"tree format version {data.get('version')!r} is not {VERSION}")
    spec = data.get("variant")
    if not isinstance(spec, dict) or set(spec) != {"pegs", "colours", "repeat"}:
        raise TreeError("'variant' must give pegs, colours and repeat")
    if not isinstance(spec["repeat"], bool):
        raise TreeError(f"'variant': repeat must be true or false, not {spec['repeat']!r}")
    try:
        variant = Variant(spec["pegs"], spec["colours"], spec["repeat"])
    except VariantError as error:
        raise TreeError(f"'variant': {error}") from None
    if "root" not in data:
        raise TreeError("the tree has no 'root' node")
    started = perf_counter()
    digits = [_digits(variant, code) for code in range(variant.size)]
    histogram: Counter[int] = Counter()
    for secret, target in enumerate(digits):
        node, path = data["root"], "root"
        for guesses in range(1, variant.size + 2):
            guess = _guess(node, path)
            try:
                code = variant.parse(guess)
            except MastermindError as error:
                raise TreeError(f"{path}: {error}") from None
            black, white = _score(target, digits[code], variant.colours)
            if black == variant.pegs:
                histogram[guesses] += 1
                break
            key = f"{black} {white}"
            answers = node.get("answers", {})
            if not isinstance(answers, dict):
                raise TreeError(f"{path}: 'answers' must be an object")
            if key not in answers:
                what = "is a leaf" if not answers else f"has no child for answer {key!r}"
                raise TreeError(
                    f"secret {variant.format(secret)} is not found: {path} (guess {guess}) {what}"
                )
            node, path = answers[key], f"{path} → {key}"
        else:
            raise TreeError(f"secret {variant.format(secret)} is not found: the tree loops")
    return Check(
        str(data.get("strategy", "")),
        variant,
        _guess(data["root"], "root"),
        dict(sorted(histogram.items())),
        perf_counter() - started,
    )


def _guess(node, path: str) -> str:
    if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
        raise TreeError(f"{path}: a node must be an object with a 'guess' string")
    return node["guess"]


def _digits(variant: Variant, code: int) -> tuple[int, ...]:
    return tuple(int(c) for c in variant.codes()[code])


def _score(secret: tuple, guess: tuple, colours: int) -> tuple[int, int]:
    """Black and white, counted peg by peg (apart from the engine's tables)."""
    black = sum(s == g for s, g in zip(secret, guess, strict=True))
    common = sum(min(secret.count(c), guess.count(c)) for c in range(colours))
    return black, common - black
