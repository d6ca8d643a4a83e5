"""Play every secret of a variant with one strategy, all games at once.

Games that share a history share a node of the game tree: its guess is computed once,
and its candidates are split by answer among the children.

>>> result = evaluate("minimax", Variant.classic())
>>> result.total, result.maximum, result.first_guess
(5801, 5, '1122')
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hamle.cluster import Cluster, checked_jobs, checked_progress, checked_sendable, local_pool

from . import _vector
from .codes import Variant, check_variant
from .errors import MastermindError
from .history import History
from .strategies import Partition, Strategy, as_strategy, checked_choice, labelled

EVALUATE_LIMIT = Partition.largest  # larger code spaces take hours for scoring strategies


@dataclass(frozen=True)
class Evaluation:
    """Guesses needed for every secret: ``histogram[n]`` secrets took n guesses; ``seed``
    is the strategy's where it draws at random (None for the others)."""

    strategy: str
    variant: Variant
    first_guess: str
    histogram: dict[int, int]
    seconds: float
    seed: int | None = None

    @property
    def label(self) -> str:
        """The strategy's name, with its seed where it has one."""
        return labelled(self.strategy, self.seed)

    @property
    def total(self) -> int:
        return sum(n * count for n, count in self.histogram.items())

    @property
    def average(self) -> float:
        return self.total / self.variant.size

    @property
    def maximum(self) -> int:
        return max(self.histogram)

    def as_dict(self) -> dict:
        return {
            "strategy": self.strategy,
            "seed": self.seed,
            "variant": self.variant.as_dict(),  # (as tree files give it)
            "codes": self.variant.size,
            "total": self.total,
            "average": self.average,
            "max": self.maximum,
            "histogram": {str(n): self.histogram[n] for n in sorted(self.histogram)},
            "first_guess": self.first_guess,
            "seconds": self.seconds,
        }


def evaluate(
    strategy: str | Strategy,
    variant: Variant,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cluster: str | Cluster | None = None,
) -> Evaluation:
    """Play every secret of ``variant``; the subtrees after the first guess are shared
    among ``jobs`` threads (kernel strategies) or processes, or the workers of the Dask
    cluster whose scheduler is at ``cluster``. ``progress(done, total)`` counts finished
    subtrees."""
    chosen = as_strategy(strategy)
    check_variant(variant)
    jobs = checked_jobs(jobs, MastermindError)
    checked_progress(progress, "done, total", MastermindError)
    chosen.check(variant)
    threads = _in_kernel(chosen, variant)
    if cluster is None and jobs > 1 and not threads:  # (a cluster sends by cloudpickle)
        checked_sendable(chosen, MastermindError)
    started = time.perf_counter()
    root = History(variant)
    first = chosen.first_guess(variant)
    histogram: Counter[int] = Counter({1: 1})
    subtrees = list(split_by_answer(root, first, np.arange(variant.size)))
    if cluster is not None:
        with Cluster.of(cluster) as running:
            share = variant.size // (2 * running.threads)
            subtrees = _balance(chosen, subtrees, histogram, share)
            subtrees.sort(key=lambda item: -len(item[1]))

            def done(i: int, part: Counter[int]) -> None:
                histogram.update(part)
                if progress:
                    progress(i + 1, len(subtrees))

            running.map(_play, [(chosen, h, c) for h, c in subtrees], done)
        return _evaluation(chosen, variant, first, histogram, started)
    if jobs > 1:
        subtrees = _balance(chosen, subtrees, histogram, variant.size // (2 * jobs))
    subtrees.sort(key=lambda item: -len(item[1]))
    if jobs == 1:
        results = (_play(chosen, h, c) for h, c in subtrees)
        for done, part in enumerate(results, 1):
            histogram.update(part)
            if progress:
                progress(done, len(subtrees))
    else:
        # The kernels let go of the GIL, so threads share the codes; the rest needs processes.
        with local_pool(jobs, threads, len(subtrees)) as pool:
            futures = [pool.submit(_play, chosen, h, c) for h, c in subtrees]
            for done, future in enumerate(futures, 1):
                histogram.update(future.result())
                if progress:
                    progress(done, len(subtrees))
    return _evaluation(chosen, variant, first, histogram, started)


def _evaluation(chosen, variant, first, histogram, started) -> Evaluation:
    seconds = time.perf_counter() - started
    ordered = dict(sorted(histogram.items()))
    return Evaluation(chosen.name, variant, variant.format(first), ordered, seconds, chosen.seed)


def split_by_answer(history: History, guess: int, candidates: np.ndarray):
    """(history after each answer but the winning one, its candidates)."""
    variant = history.variant
    answers = variant.answers_of(guess, candidates)
    order = np.argsort(answers, kind="stable")
    answers, candidates = answers[order], candidates[order]
    bounds = [0, *(np.flatnonzero(np.diff(answers)) + 1).tolist(), len(answers)]
    for low, high in itertools.pairwise(bounds):
        answer = int(answers[low])
        if answer != variant.solved:
            yield history.then(guess, answer), candidates[low:high]


def split_by_guess(strategy: Strategy, history: History, guess: int, candidates: np.ndarray):
    """``split_by_answer`` for a guess ``strategy`` chose: MastermindError if it tells
    none of the candidates apart (nor is one), as the game would never end."""
    parts = list(split_by_answer(history, guess, candidates))
    if len(parts) == 1 and len(parts[0][1]) == len(candidates):
        raise MastermindError(
            f"{strategy.name} chose {history.variant.format(guess)}, which tells none of the "
            f"{len(candidates):,} candidates apart, so play would never end"
        )
    return parts


def _balance(strategy: Strategy, subtrees: list, histogram: Counter, largest: int) -> list:
    """Split subtrees of more than ``largest`` secrets into their children (playing their
    guess here), so that the processes get shares of similar size."""
    done = []
    while subtrees:
        node, codes = subtrees.pop()
        if len(codes) <= max(largest, 1):
            done.append((node, codes))
            continue
        guess = checked_choice(strategy, node, codes)
        if np.any(codes == guess):
            histogram[len(node.turns) + 1] += 1
        subtrees.extend(split_by_guess(strategy, node, guess, codes))
    return done


def _play(strategy: Strategy, history: History, candidates: np.ndarray) -> Counter[int]:
    """Guesses per secret below a node whose history already holds len(turns) guesses."""
    variant = history.variant
    if _in_kernel(strategy, variant):
        return _play_kernel(strategy, history, candidates)
    out: Counter[int] = Counter()
    stack = [(history, candidates)]
    while stack:
        node, codes = stack.pop()
        made = len(node.turns)
        if len(codes) == 1:
            out[made + 1] += 1
            continue
        guess = checked_choice(strategy, node, codes)
        if np.any(codes == guess):
            out[made + 1] += 1
        stack.extend(split_by_guess(strategy, node, guess, codes))
    return out


def _in_kernel(strategy: Strategy, variant: Variant) -> bool:
    """Whether ``_play`` plays ``strategy`` in one kernel call: a built-in partition
    strategy as it is (a subclass plays through its own ``choose``) on a variant too
    large for the vectors."""
    return type(strategy) is Partition and variant.size > _vector.VECTOR_LIMIT


def _play_kernel(strategy: Partition, history: History, candidates: np.ndarray) -> Counter[int]:
    """``_play`` in one kernel call: the same guesses, node by node."""
    from . import _kernels

    histogram = _kernels.play(*strategy.kernel_arguments(history, candidates))
    return Counter({k: int(n) for k, n in enumerate(histogram) if n})
