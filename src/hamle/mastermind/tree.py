"""Strategy trees as JSON, and their check by replaying every secret.

A tree file is one JSON object::

    {"format": "hamle-mastermind-tree", "version": 1,
     "variant": {"pegs": 4, "colours": 6, "repeat": true},
     "strategy": "optimal", "max_guesses": null,
     "root": NODE}

(with ``"seed": N`` after the name of a strategy that draws at random), where a NODE
is ``{"guess": "1123", "answers": {"0 0": NODE, "0 1": NODE, ...}}``: the code to guess
(its digits) and the node to go on with after each answer (black and white separated by
a space) but the one that solves. A node without ``answers`` (or with
none) is a leaf: its guess must be the secret. ``verify`` needs nothing else, so trees
written by other solvers can be checked as well; ``load`` reads a file strictly (a name
given twice in one object is an error, not its last value alone).

>>> from hamle.mastermind.optimal import solve
>>> data = tree_json(solve(Variant(2, 2)).tree, Variant(2, 2), "optimal")
>>> data["root"]["guess"], sorted(data["root"]["answers"])
('11', ['0 0', '1 0'])
>>> verify(data).total
8
"""

from __future__ import annotations

import json
import operator
import os
import re
import stat
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter

import numpy as np

from .codes import MAX_CODES, Variant, counted, possible_answers, quoted
from .errors import MastermindError, VariantError
from .evaluate import Evaluation, split_by_guess
from .history import History
from .strategies import as_strategy, checked_choice

FORMAT, VERSION = "hamle-mastermind-tree", 1
# A tree file read at most: one of MAX_CODES secrets writes about 50 bytes a secret (100 MB).
MAX_TREE_BYTES = 2**28
# Its objects and values at most (a node and its answers are two objects, a value is
# about two commas): counted before reading, as 256 MB of {} would take gigabytes read.
MAX_TREE_OBJECTS, MAX_TREE_COMMAS = 4 * MAX_CODES, 16 * MAX_CODES


class TreeError(MastermindError):
    """A tree file that is not a strategy tree, or one that fails a secret."""


@dataclass(frozen=True)
class Check(Evaluation):
    """What replaying every secret through a tree gave (``first_guess``: the root's,
    ``seconds``: the replay's), in an evaluation's terms: a tree checks out only where it
    finds every code, so the two compare key by key."""


def tree_json(
    node, variant: Variant, strategy: str, max_guesses: int | None = None, seed: int | None = None
) -> dict:
    """The tree file of a tree of ``optimal.Node`` (guess, ((answer, child), ...)); the
    ``seed`` of a strategy that draws at random is written after its name."""

    def encode(node) -> dict:
        out: dict = {"guess": variant.format(node.guess)}
        if node.children:
            out["answers"] = {
                "{} {}".format(*variant.split(answer)): encode(child)
                for answer, child in node.children
            }
        return out

    seeded = {} if seed is None else {"seed": seed}
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": variant.as_dict(),
        "strategy": strategy,
        **seeded,
        "max_guesses": max_guesses,
        "root": encode(node),
    }


def strategy_tree(strategy, variant: Variant):
    """The whole decision tree of a strategy (or its name): its guess at every history it
    meets, chosen from the candidates each node holds, as ``evaluate`` plays them.

    >>> tree = strategy_tree("first-consistent", Variant(2, 2))
    >>> tree.guess, [(answer, child.guess) for answer, child in tree.children]
    (0, [(0, 3), (3, 1)])
    """
    from .optimal import Node

    chosen = as_strategy(strategy)
    chosen.check(variant)

    def grow(history: History, cands: np.ndarray, guess: int) -> Node:
        children = []
        for after, part in split_by_guess(chosen, history, guess, cands):
            then = int(part[0]) if len(part) == 1 else checked_choice(chosen, after, part)
            children.append((after.turns[-1][1], grow(after, part, then)))
        return Node(guess, tuple(children))

    return grow(History(variant), np.arange(variant.size), chosen.first_guess(variant))


def load(path: str | Path):
    """The JSON of the tree file at ``path``, read strictly for ``verify``: TreeError if it
    cannot be read, is not JSON (UTF-8), is nested too deeply, gives a name twice in one
    object (JSON readers keep the last one alone) or a number too long to read. Only a
    file of at most MAX_TREE_BYTES is read (not a device, a pipe or a folder)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise TreeError(f"cannot read {path}: it is not a file")
        with open(path, "rb") as file:
            data = file.read(MAX_TREE_BYTES + 1)
    except OSError as error:
        raise TreeError(f"cannot read {path}: {error.strerror}") from None
    if len(data) > MAX_TREE_BYTES:
        raise TreeError(f"{path} is larger than {MAX_TREE_BYTES:,} bytes, more than any tree file")
    for many, mark, what in (
        (MAX_TREE_OBJECTS, b"{", "objects"),
        (MAX_TREE_COMMAS, b",", "commas"),
    ):
        if data.count(mark) > many:
            raise TreeError(f"{path} holds more than {many:,} {what}, more than any tree file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TreeError(f"{path} is not JSON: {error}") from None
    try:
        return json.loads(text, object_pairs_hook=_once, parse_int=_whole_number)
    except json.JSONDecodeError as error:
        raise TreeError(f"{path} is not JSON: {error}") from None
    except RecursionError:
        raise TreeError(f"{path} is nested too deeply to be a tree file") from None
    except TreeError as error:
        raise TreeError(f"{path}: {error}") from None


def _said(value) -> str:
    """A value read from a tree file, quoted as the file writes it where JSON and Python
    differ (``true``, ``null``).

    >>> _said(True), _said(None), _said("1 2"), _said(1.0)
    ('true', 'null', "'1 2'", '1.0')
    """
    return json.dumps(value) if value is None or isinstance(value, bool) else quoted(value)


def _once(pairs: list[tuple[str, object]]) -> dict:
    """The object of ``pairs``; TreeError naming a name given twice.

    >>> _once([("guess", "1"), ("guess", "2")])
    Traceback (most recent call last):
    hamle.mastermind.tree.TreeError: the name 'guess' is given twice in one object
    """
    out = dict(pairs)
    if len(out) < len(pairs):
        twice = next(name for name, n in Counter(name for name, _ in pairs).items() if n > 1)
        raise TreeError(f"the name {_said(twice)} is given twice in one object")
    return out


def _whole_number(digits: str) -> int:
    """A JSON whole number; TreeError past the digits Python reads (4300)."""
    limit = sys.get_int_max_str_digits()
    if limit and len(digits.lstrip("-")) > limit:
        raise TreeError(
            f"a number of {len(digits.lstrip('-')):,} digits is too long to read "
            f"(at most {limit:,})"
        )
    return int(digits)


TOP_KEYS = {"format", "version", "variant", "strategy", "seed", "max_guesses", "root", "total"}
NODE_KEYS = {"guess", "answers"}


def verify(data: dict) -> Check:
    """Replay every secret of the tree's variant through it; TreeError naming the first
    secret that is not found, the node that is malformed or that no secret reaches, or
    the claim (``max_guesses``, ``total``) that does not hold."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TreeError(f"not a Mastermind strategy tree: 'format' must be {FORMAT!r}")
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # (true and 1.0 equal 1)
        raise TreeError(f"tree format version {_said(version)} is not {VERSION}")
    if unknown := sorted(set(data) - TOP_KEYS, key=str):
        raise TreeError(
            f"unknown key {_said(unknown[0])} in the tree; it takes {', '.join(sorted(TOP_KEYS))}"
        )
    spec = data.get("variant")
    if not isinstance(spec, dict) or set(spec) != {"pegs", "colours", "repeat"}:
        raise TreeError("'variant' must give pegs, colours and repeat")
    if not isinstance(spec["repeat"], bool):
        raise TreeError(f"'variant': repeat must be true or false, not {_said(spec['repeat'])}")
    for size in ("pegs", "colours"):
        if type(spec[size]) is not int:
            raise TreeError(f"'variant': {size} must be a whole number, not {_said(spec[size])}")
    try:
        variant = Variant(spec["pegs"], spec["colours"], spec["repeat"])
    except VariantError as error:
        raise TreeError(f"'variant': {error}") from None
    for claim, low in (("max_guesses", 1), ("total", 1), ("seed", 0)):
        value = data.get(claim)
        if value is not None and (type(value) is not int or value < low):
            raise TreeError(f"'{claim}' must be a whole number from {low} on, not {_said(value)}")
    if not isinstance(data.get("strategy"), str | None):
        raise TreeError(f"'strategy' must be a name, not {_said(data['strategy'])}")
    if "root" not in data:
        raise TreeError("the tree has no 'root' node")
    started = perf_counter()
    _enough_nodes(data["root"], variant)
    nodes = _nodes(data["root"], variant)
    histogram, reached = _replay(data["root"], nodes, variant)
    for path, node in _walk(data["root"]):
        if id(node) not in reached:
            raise TreeError(f"{path}: no secret reaches this node")
    check = Check(
        data.get("strategy") or "",
        variant,
        _guess(data["root"], "root"),
        dict(sorted(histogram.items())),
        perf_counter() - started,
        data.get("seed"),
    )
    claimed = data.get("max_guesses")
    if claimed is not None and check.maximum > claimed:
        raise TreeError(
            f"'max_guesses' is {claimed}, but the tree needs {check.maximum} guesses for "
            f"{check.histogram[check.maximum]} of the secrets"
        )
    if data.get("total") is not None and data["total"] != check.total:
        raise TreeError(f"'total' is {_said(data['total'])}, but the tree's total is {check.total}")
    return check


def _enough_nodes(root, variant: Variant) -> None:
    """TreeError for a tree of more than NAMED_UP_TO codes with fewer nodes than codes: a
    node finds at most one secret, the code it guesses, so some secret is not found."""
    if variant.size <= NAMED_UP_TO:
        return
    count = 0
    for count, _ in enumerate(_walk(root), 1):
        if count >= variant.size:
            return
    raise TreeError(
        f"the tree has {counted(count, 'node')} for {variant.size:,} secrets: a node finds at "
        f"most the secret it guesses, so {variant.size - count:,} or more are not found"
    )


def _walk(root):
    """(path, node) of every node under ``root``, parents first; a node must be an object."""
    stack = [("root", root)]
    while stack:
        path, node = stack.pop()
        yield path, node
        answers = node.get("answers") if isinstance(node, dict) else None
        if isinstance(answers, dict):
            stack.extend((f"{path} → {key}", child) for key, child in reversed(answers.items()))


def _nodes(root, variant: Variant) -> dict[int, tuple[int, dict]]:
    """Every node by id: its guess (index) and its answers; TreeError naming the first
    node that is not an object with a code to guess and answers that can happen."""
    text = (variant.codes() + np.uint8(ord("0") + variant.first_digit)).view(f"S{variant.pegs}")
    codes = dict(zip(text.ravel().tolist(), range(variant.size), strict=True))
    keys = {"{} {}".format(*variant.split(a)) for a in possible_answers(variant)}
    keys.discard("{} {}".format(*variant.split(variant.solved)))
    nodes = {}
    for path, node in _walk(root):
        guess = _guess(node, path)
        if unknown := sorted(set(node) - NODE_KEYS):
            raise TreeError(
                f"{path}: unknown key {_said(unknown[0])}; a node takes guess and answers"
            )
        code = codes.get(guess.encode()) if guess.isascii() else None
        if code is None:
            _not_a_code(variant, guess, path)
        answers = node.get("answers", {})
        if not isinstance(answers, dict):
            raise TreeError(f"{path}: 'answers' must be an object")
        for key in answers:
            if key not in keys:
                _answer(variant, key, path)
        if id(node) in nodes:
            raise TreeError(f"{path}: a node met twice; the nodes of a tree are all apart")
        nodes[id(node)] = (code, answers)
    return nodes


def _not_a_code(variant: Variant, guess: str, path: str) -> None:
    """TreeError saying why ``guess`` is no code: a node gives a code's digits alone, not
    the other ways a person may type one (``1 1 2 3``, ``1,1,2,3``)."""
    if re.fullmatch(f"[0-9]{{{variant.pegs}}}", guess, re.ASCII):
        try:
            variant.parse(guess)  # a colour out of range, or one repeated
        except MastermindError as error:
            raise TreeError(f"{path}: {error}") from None
    low, high = variant.first_digit, variant.first_digit + variant.colours - 1
    raise TreeError(
        f"{path}: {_said(guess)} is not a code: write its {counted(variant.pegs, 'digit')} "
        f"{low}-{high} and nothing else"
    )


def _answer(variant: Variant, key, path: str) -> None:
    """TreeError saying why ``key`` is no answer a node can go on after."""
    numbers = key.split(" ") if isinstance(key, str) else []
    if len(numbers) != 2 or not all(n.isascii() and n.isdigit() for n in numbers):
        raise TreeError(f"{path}: {_said(key)} is not an answer: write black and white, like '1 2'")
    if any(len(n) > 1 and n.startswith("0") for n in numbers):
        raise TreeError(
            f"{path}: {_said(key)} is not an answer: write black and white without leading "
            "zeros, like '1 0'"
        )
    if any(len(n) > 1 for n in numbers):  # 10 or more: more than any variant's pegs
        raise TreeError(
            f"{path}: {_said(key)} is not an answer: black and white add up to at most "
            f"{variant.pegs}"
        )
    try:
        answer = variant.answer(int(numbers[0]), int(numbers[1]))
    except MastermindError as error:
        raise TreeError(f"{path} → {key}: {error}") from None
    if answer == variant.solved:
        raise TreeError(f"{path} → {key}: {variant.pegs} black ends the game; it takes no node")
    raise TreeError(f"{path} → {key}: write the answer as black and white, like '1 2'")


def _guess(node, path: str) -> str:
    if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
        raise TreeError(f"{path}: a node must be an object with a 'guess' string")
    return node["guess"]


SMALL_GROUP = 8  # at most this many secrets at a node are played on one at a time
# Codes up to which a tree of fewer nodes than codes is replayed to name the first secret it
# does not find; past them it is refused by that count before any table of every code is
# built (on 8 pegs of 6 colours those take 750 MB, for a file of a hundred bytes).
NAMED_UP_TO = 2048


def _replay(root, nodes: dict, variant: Variant) -> tuple[Counter, set[int]]:
    """The histogram of guesses per secret and the ids of the nodes reached, every secret
    played down the tree and scored here (black peg by peg, white from colour counts;
    apart from the engine's tables): the secrets at a node together, or one at a time
    when they are few. TreeError naming the lowest secret the tree does not find."""
    p = variant.pegs
    codes = variant.codes()
    counts = np.zeros((variant.size, variant.colours), np.int64)
    for peg in range(p):
        counts[np.arange(variant.size), codes[:, peg]] += 1
    rows, tallies = codes.tolist(), counts.tolist()
    histogram: Counter[int] = Counter()
    reached: set[int] = set()
    lost = []  # (secret, where the tree fails it)

    def lose(secret: int, path: str, code: int, answers: dict, key: str) -> None:
        what = "is a leaf" if not answers else f"has no child for answer {key!r}"
        lost.append((secret, f"{path} (guess {variant.format(code)}) {what}"))

    stack = [(root, "root", 1, np.arange(variant.size))]
    while stack:
        node, path, depth, secrets = stack.pop()
        if len(secrets) <= SMALL_GROUP:
            for secret in secrets.tolist():
                at, where, guesses = node, path, depth
                while True:
                    reached.add(id(at))
                    code, answers = nodes[id(at)]
                    black = sum(map(operator.eq, rows[secret], rows[code]))
                    common = sum(map(min, tallies[secret], tallies[code]))
                    if black == p:
                        histogram[guesses] += 1
                        break
                    key = f"{black} {common - black}"
                    if key not in answers:
                        lose(secret, where, code, answers, key)
                        break
                    at, where, guesses = answers[key], f"{where} → {key}", guesses + 1
            continue
        reached.add(id(node))
        code, answers = nodes[id(node)]
        black = (codes[secrets] == codes[code]).sum(axis=1)
        common = np.minimum(counts[secrets], counts[code]).sum(axis=1)
        keys = black * (p + 1) + common - black
        order = np.argsort(keys, kind="stable")
        cuts = np.flatnonzero(np.diff(keys[order])) + 1
        for group in np.split(order, cuts):
            black, white = divmod(int(keys[group[0]]), p + 1)
            if black == p:
                histogram[depth] += len(group)
                continue
            key = f"{black} {white}"
            if key not in answers:
                lose(int(secrets[group].min()), path, code, answers, key)
            else:
                stack.append((answers[key], f"{path} → {key}", depth + 1, secrets[group]))
    if lost:
        secret, where = min(lost)
        raise TreeError(f"secret {variant.format(secret)} is not found: {where}")
    return histogram, reached
