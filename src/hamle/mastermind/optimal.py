"""The optimal strategy (spec § 4): least total guesses over all secrets, found exactly.

A depth-first branch and bound over candidate sets. A set's cost is the number of guesses
its secrets still need in all: |S| for the next guess plus the cost of each part it
splits S into. No strategy beats ``least_totals``[n], the cost of a tree in which every
guess is a candidate and splits the rest as widely as any answer set allows, so a guess
whose parts' least totals already reach the best cost found is not searched. Guesses
are tried in order of that bound; of codes that a permutation of pegs and colours keeping
every guess so far maps to each other only one is tried (``Symmetry``); a guess's parts
are searched smallest first, so that their excess over their least totals leaves the
largest part as little room as possible. The first levels, where pegs may still be
permuted, are searched here, remembering every set's cost (or a bound on it); each set
below them is searched in one call of ``_kernels.optimal_cost``. ``jobs`` threads share
the sets no bound limits yet.

>>> solution = solve(Variant(2, 3))
>>> solution.total, Variant(2, 3).format(solution.tree.guess)
(21, '12')
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from threading import Event, Lock, Thread, local
from time import perf_counter
from typing import NamedTuple

import numpy as np

from hamle.cluster import checked_jobs, checked_progress

from . import _kernels
from .codes import Variant, counted, feedback_table, possible_answers, quoted
from .errors import MastermindError
from .history import History

UNSOLVABLE = 1 << 40  # the cost of a set no strategy solves within the guesses left
KERNEL_SETS = 400  # sets of at most this many codes are searched in one kernel call
REPORT_SECONDS = 1.0  # how often progress is called during a search


class Node(NamedTuple):
    """A decision tree: the guess, and the subtree after each answer but the solving one
    (answer index, subtree), in increasing order of answers. A node without children is
    a leaf: its guess is the one secret left."""

    guess: int
    children: tuple


@dataclass(frozen=True)
class Solution:
    """The optimal strategy of a variant (with at most ``max_guesses`` per secret when
    set): its total over all secrets, its tree, and what the search took."""

    variant: Variant
    max_guesses: int | None
    total: int
    tree: Node
    nodes: int
    seconds: float


def solve(
    variant: Variant,
    max_guesses: int | None = None,
    progress=None,
    *,
    symmetry: bool = True,
    memo: bool = True,
    jobs: int = 1,
) -> Solution:
    """The strategy of least total guesses over every secret of ``variant``, never more
    than ``max_guesses`` for one secret when set. ``progress(nodes, lower, upper)`` is
    called about once a second during long searches: the sets searched so far, and the
    bounds on the total known then (upper None until a whole strategy is found).
    ``symmetry`` and ``memo`` off (for measuring what they save) try every code at every
    set and search every set each time it is met. ``jobs`` threads share the search of
    the first guesses; the strategy found is the same. A cap at or above the number of
    codes, or (with memo on) one the free optimum keeps, caps nothing: the solution then
    has ``max_guesses`` None.

    >>> solve(Variant(2, 2)).total, solve(Variant(2, 2), max_guesses=3).total
    (8, 8)
    >>> solve(Variant(2, 2), max_guesses=3).max_guesses is None
    True
    """
    check_cap(max_guesses)
    jobs = checked_jobs(jobs, MastermindError)
    if max_guesses is not None and max_guesses >= variant.size:
        max_guesses = None  # each guess played leaves fewer secrets, so none needs more
    if max_guesses is not None and variant.size > reach(variant, max_guesses):
        raise _too_few(variant, max_guesses)  # (at once, not after the free search)
    started = perf_counter()
    everything = np.arange(variant.size, dtype=np.int32)
    searches = [_Search(variant, None, symmetric=symmetry, remember=memo, jobs=jobs)]
    start = Symmetry.of(variant) if symmetry else searches[0].plain

    def search_all() -> Solution:
        cap = max_guesses
        if cap is not None and memo:  # the free optimum first: it bounds the capped search
            searches[0].cost(everything, start, variant.size, UNSOLVABLE)
            if searches[0].height(everything) <= cap:
                cap = None  # the free optimum's tree is the capped one too
            else:
                searches.append(_Search(variant, cap, searches[0], symmetry, jobs=jobs))
        elif cap is not None:
            searches.append(_Search(variant, cap, None, symmetry, memo, jobs))
        search = searches[-1]
        depth = cap if cap is not None else variant.size
        total = search.cost(everything, start, depth, UNSOLVABLE)
        if total >= UNSOLVABLE:
            raise _too_few(variant, cap)
        tree = search.tree(everything, start, depth, total)
        return Solution(variant, cap, total, tree, search.searched(), perf_counter() - started)

    with _reporting(progress, searches):
        return _interruptible(search_all)


def _too_few(variant: Variant, max_guesses: int) -> MastermindError:
    return MastermindError(
        f"no strategy finds every secret of {variant.describe()} within "
        f"{counted(max_guesses, 'guess')}; allow more"
    )


def reach(variant: Variant, guesses: int) -> int:
    """The most secrets any strategy can find within ``guesses``: a guess finds itself and
    splits the rest by the answers that do not win, each branch with one guess fewer
    (counted no further than past the variant's codes: a cap of a million guesses would
    sum numbers of millions of digits).

    >>> reach(Variant(4, 6), 3), reach(Variant(4, 6), 4)  # (so classic needs 4 at least)
    (183, 2380)
    """
    branches, total, layer = len(possible_answers(variant)) - 1, 0, 1
    for _ in range(guesses):
        total += layer
        if total >= variant.size:
            break
        layer *= branches
    return total


class _Run:
    """One call's search, on every thread that works for it: given up (``stop``), its
    kernel calls under way return at their next set and its threads raise ``_Stopped`` at
    theirs. Calls sharing a search (``next_guess``'s) are given up apart."""

    def __init__(self) -> None:
        self.stopped, self.tallies, self.lock = False, {}, Lock()

    def doing(self, work, *args):
        """``work(*args)`` on this thread, as part of this run."""
        before, _working.run = getattr(_working, "run", None), self
        try:
            return work(*args)
        finally:
            _working.run = before

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            for tally in self.tallies.values():
                tally[1] = 1

    def started(self, tally: np.ndarray) -> None:
        """A kernel call of the run begins, counting into ``tally``."""
        with self.lock:
            self.tallies[id(tally)] = tally
            tally[1] = self.stopped

    def ended(self, tally: np.ndarray) -> None:
        with self.lock:
            del self.tallies[id(tally)]


_working = local()  # .run: the run the thread works for (None: one never given up)


def _run_here() -> _Run:
    return getattr(_working, "run", None) or _Run()


def _interruptible(work):
    """What ``work()`` returns, worked out on a thread of its own. Ctrl-C reaches the main
    thread only between kernel calls, and one may last half a minute; waiting here, the
    main thread takes it at once, gives the run up and raises it without waiting: the
    thread (a daemon, which an exit does not wait for) ends at the run's next set."""
    run, done, outcome = _Run(), Event(), {}

    def body() -> None:
        try:
            outcome["value"] = run.doing(work)
        except BaseException as exc:  # (handed to the caller's thread)
            outcome["error"] = exc
        finally:
            done.set()

    try:
        Thread(target=body, name="hamle optimal search", daemon=True).start()
        done.wait()
    except BaseException:
        run.stop()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@contextmanager
def _reporting(progress, searches: list, size: int | None = None):
    """Calls ``progress(nodes, lower, upper)`` once a second from a thread while the
    block runs, on the last of ``searches`` (which the block may add to); ``size``: the
    number of secrets searched for when not all of them (upper is then None)."""
    if checked_progress(progress, "nodes, lower, upper", MastermindError) is None:
        yield
        return
    done = Event()

    def report() -> None:
        while not done.wait(REPORT_SECONDS):
            search = searches[-1]
            if size is None:
                progress(search.searched(), int(search.least[-1]), search.upper)
            else:
                progress(search.searched(), int(search.least[size]), None)

    thread = Thread(target=report, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def check_cap(max_guesses) -> None:
    """MastermindError unless ``max_guesses`` is None or a whole number from 1 on."""
    if max_guesses is not None and (
        not isinstance(max_guesses, int) or isinstance(max_guesses, bool) or max_guesses < 1
    ):
        raise MastermindError(
            f"max_guesses must be a whole number from 1 on, not {quoted(max_guesses)}"
        )


def next_guess(
    history: History, max_guesses: int | None = None, progress=None, candidates=None
) -> int:
    """The optimal strategy's guess after ``history``: from its tree (``cached_tree``)
    while the history follows it, else searched from the candidates left (``candidates``
    when the caller has them). ``progress`` as in ``solve``, for a tree solved now and for
    a search off the tree."""
    variant = history.variant
    node = cached_tree(variant, max_guesses, progress)["root"]
    for guess, answer in history.turns:
        if variant.parse(node["guess"]) != guess:
            break
        node = (node.get("answers") or {}).get("{} {}".format(*variant.split(answer)))
        if node is None:
            break
    else:
        return variant.parse(node["guess"])
    found = history.candidates() if candidates is None else candidates
    cands = np.asarray(found, np.int32)
    symmetry = Symmetry.of(variant, [guess for guess, _ in history.turns])
    search = _searcher(variant, max_guesses)
    depth = variant.size if max_guesses is None else max_guesses - len(history.turns)

    def searched() -> int:
        if search.cost(cands, symmetry, depth, UNSOLVABLE) >= UNSOLVABLE:
            raise MastermindError(
                f"{len(cands)} candidates cannot all be found within the "
                f"{counted(max(depth, 0), 'guess')} left of {max_guesses}"
            )
        return search.guess(cands, symmetry, depth)

    with _reporting(progress, [search], len(cands)):
        return _interruptible(searched)


@cache
def _searcher(variant: Variant, max_guesses: int | None) -> _Search:
    return _Search(variant, max_guesses)


def cache_dir() -> Path | None:
    """Where solved trees are kept: $HAMLE_CACHE_DIR, else ``hamle`` in the user's cache
    directory ($XDG_CACHE_HOME, else ~/.cache); None where the user has no home, and then
    no tree is kept. An XDG_CACHE_HOME or HOME that is empty or relative counts as unset,
    as the XDG rules say (an empty HOME would put the cache in /.cache)."""
    if os.environ.get("HAMLE_CACHE_DIR"):
        return Path(os.environ["HAMLE_CACHE_DIR"])
    if os.path.isabs(base := os.environ.get("XDG_CACHE_HOME", "")):
        return Path(base, "hamle")
    if os.path.isabs(home := _home()):
        return Path(home, ".cache", "hamle")
    return None


def _home() -> str:
    """$HOME, else (unset, empty or relative) the home the password database gives the
    user, as Python and the shell take an unset HOME; '' where it gives none."""
    home = os.environ.get("HOME", "")
    if os.path.isabs(home):
        return home
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError):  # (no such database, or no entry for this user)
        return ""


def tree_path(variant: Variant, max_guesses: int | None) -> Path | None:
    """The file of the optimal tree of ``variant`` and cap in ``cache_dir()``, if any."""
    if (folder := cache_dir()) is None:
        return None
    repeat = "" if variant.repeat else "-no-repeat"
    cap = f"-at-most-{max_guesses}" if max_guesses else ""
    return folder / f"mastermind-optimal-{variant.pegs}x{variant.colours}{repeat}{cap}.json"


_TREES: dict[tuple, dict] = {}  # (variant, cap): the tree file, checked
_READ: dict[tuple, Path] = {}  # (variant, cap): the cache file its tree was read from
_HEIGHTS: dict[Variant, int] = {}  # the most guesses the free optimum needs
_REFUSED: dict[tuple, tuple] = {}  # (variant, cap): (path, mtime, size) of a file that failed


def effective_cap(variant: Variant, max_guesses: int | None) -> int | None:
    """``max_guesses``, or None where it caps nothing: from the number of codes on (each
    guess leaves fewer secrets), or from the most guesses the optimal strategy without a
    cap needs, when its tree is at hand (``stored_tree``).

    >>> effective_cap(Variant(2, 2), 4), effective_cap(Variant.classic(), 5)
    (None, 5)
    """
    check_cap(max_guesses)
    if max_guesses is None or max_guesses >= variant.size:
        return None
    if variant not in _HEIGHTS and (free := stored_tree(variant)) is not None:
        _HEIGHTS[variant] = _height(free["root"])
    return None if max_guesses >= _HEIGHTS.get(variant, variant.size) else max_guesses


def _height(node: dict) -> int:
    """The most guesses a tree file's node needs for one secret."""
    return 1 + max((_height(child) for child in node.get("answers", {}).values()), default=0)


def stored_tree(variant: Variant, max_guesses: int | None = None) -> dict | None:
    """The optimal tree file (``tree.tree_json``) of a variant and cap if this process has
    it or the cache directory holds a valid one (it checks out, with the total it
    records, as this variant's and cap's), else None. A file that does not check out is
    checked again only once it changes (its time or size)."""
    max_guesses = effective_cap(variant, max_guesses)
    key = (variant, max_guesses)
    if key in _TREES:
        return _TREES[key]
    path = tree_path(variant, max_guesses)
    if path is None:
        return None
    try:
        stat = path.stat()  # before reading: a file changed after it is checked again
    except OSError:
        return None
    seen = (str(path), stat.st_mtime_ns, stat.st_size)
    if _REFUSED.get(key) == seen:
        return None
    data = _checked(path, variant, max_guesses)
    if data is None:
        _REFUSED[key] = seen
        return None
    _TREES[key] = data
    _READ[key] = path
    return data


def read_from(variant: Variant, max_guesses: int | None = None) -> Path | None:
    """The cache file this process read the optimal tree of ``variant`` and cap from, or
    None where it solved the tree itself (or has none)."""
    key = (variant, effective_cap(variant, max_guesses))
    return _READ.get(key) if key in _TREES else None


def _checked(path: Path, variant: Variant, max_guesses: int | None) -> dict | None:
    """The tree file at ``path`` if it is the optimal tree of this variant and cap, with
    the total it records, else None."""
    from .tree import TreeError, load, verify

    try:
        data = load(path)
        check = verify(data)
    except TreeError:
        return None
    if (
        check.variant != variant
        or data.get("strategy") != "optimal"
        or data.get("max_guesses") != max_guesses
        or data.get("total") != check.total  # (verify refuses a cap the tree breaks)
    ):
        return None
    return data


def cached_tree(
    variant: Variant, max_guesses: int | None = None, progress=None, jobs: int = 1
) -> dict:
    """``stored_tree``, or the tree solved now (by ``jobs`` threads) and written to the
    cache directory (over a damaged or foreign file). A cap that caps nothing
    (``effective_cap``) gives the tree without a cap."""
    from .tree import tree_json

    data = stored_tree(variant, max_guesses)
    if data is not None:
        return data
    solution = solve(variant, effective_cap(variant, max_guesses), progress, jobs=jobs)
    max_guesses = solution.max_guesses
    data = tree_json(solution.tree, variant, "optimal", max_guesses)
    data["total"] = solution.total
    if (path := tree_path(variant, max_guesses)) is not None:
        spare = path.with_suffix(f".{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            spare.write_text(json.dumps(data, separators=(",", ":")))
            spare.replace(path)
        except OSError:  # a cache that cannot be written only costs the next process a search
            with contextlib.suppress(OSError):
                spare.unlink(missing_ok=True)  # (left behind where the rename failed)
    _TREES[variant, max_guesses] = data
    _READ.pop((variant, max_guesses), None)
    return data


@contextmanager
def _stopped_on_error(run: _Run, threads: ThreadPoolExecutor):
    """When the block raises, drops the work ``threads`` have not started and gives the
    ``run`` up, so that an interrupted search ends at once, not once the threads have
    finished it."""
    try:
        yield
    except BaseException:
        run.stop()
        threads.shutdown(wait=False, cancel_futures=True)
        raise


class _Stopped(Exception):
    """Raised in a search's threads once it is given up."""


class _Search:
    """One search's memo. A capped search may be given the ``relaxed`` search without the
    cap, already run: a set costs at least as much under the cap, and exactly as much
    when the free strategy found for it needs no more guesses than are left. Without
    ``remember``, the memo only keeps the guesses found, for the tree; ``symmetric``
    off, absent colours are not taken as one."""

    def __init__(self, variant, max_guesses, relaxed=None, symmetric=True, remember=True, jobs=1):
        table = feedback_table(variant)
        if table is None:
            raise MastermindError(
                f"{variant.describe()} is too big to search for the optimal strategy"
            )
        self.variant, self.table = variant, table
        # the kernel reads the answers of 64 guesses at once: rows padded to whole blocks
        self.blocks = np.zeros((variant.size, -(-variant.size // 64) * 64), np.uint8)
        self.blocks[:, : variant.size] = table
        self.capped = max_guesses is not None
        self.win = variant.solved
        self.spread = len(possible_answers(variant)) - 1  # answers that leave secrets
        self.least = least_totals(variant.size, self.spread)
        # reach[d]: the most secrets any strategy solves within d guesses
        reach = [sum(self.spread**level for level in range(d)) for d in range(24)]
        self.reach = np.minimum(reach, 1 << 62).astype(np.int64)
        self.digits = variant.codes().astype(np.int64)
        answers = [*sorted(possible_answers(variant) - {self.win}), self.win]
        self.answers = np.array(answers, np.uint8)  # the solving one last
        self.colour_sets = np.array(
            [sum(1 << c for c in set(row.tolist())) for row in variant.codes()]
        )
        self.plain = Symmetry(((tuple(range(variant.pegs)), tuple(range(variant.colours))),), ())
        # (no symmetry: every code is tried)
        self.memo: dict[tuple, tuple[int, bool, int]] = {}
        self.nodes, self.running = 0, {}  # sets searched; the tallies of kernel calls
        self.upper = None  # the least total of a whole strategy found so far
        self.relaxed, self.heights = relaxed, {}
        self.symmetric, self.remember, self.jobs = symmetric, remember, jobs
        self.counting = Lock()

    def cost(self, cands: np.ndarray, symmetry: Symmetry, depth: int, limit: int) -> int:
        """The least cost of ``cands`` within ``depth`` guesses if it is below ``limit``;
        otherwise some number at least ``limit``."""
        run = _run_here()
        if run.stopped:
            raise _Stopped
        n = len(cands)
        if n == 1:
            return 1 if depth >= 1 else UNSOLVABLE
        if n == 2:
            return 3 if depth >= 2 else UNSOLVABLE
        if depth < 2 or n > self.reach[min(depth, len(self.reach) - 1)]:
            return UNSOLVABLE
        key = (cands.tobytes(), depth if self.capped else 0)
        lower, exact, _ = self.memo.get(key, (int(self.least[n]), False, -1))
        if not self.remember:
            lower, exact = int(self.least[n]), False
        if self.relaxed and not exact:
            free_cost, free_exact, _ = self.relaxed.memo.get((key[0], 0), (0, False, -1))
            if free_exact and self.relaxed.height(cands) <= depth:
                self.memo[key] = (free_cost, True, self.relaxed.guess(cands, self.plain, 0))
                return free_cost
            lower = max(lower, free_cost)
        if exact or lower >= limit:
            return lower
        if len(symmetry.maps) == 1 or n <= KERNEL_SETS:  # pegs are permuted at the top only
            free = sum(1 << colour for colour in symmetry.free)
            tally = np.zeros(2, np.int64)  # (the sets searched; [1] set: given up)
            with self.counting:
                self.running[id(tally)] = tally
            run.started(tally)
            try:
                total, guess = _kernels.optimal_cost(
                    self.blocks, self.variant.answer_slots, self.answers, self.digits,
                    self.variant.repeat, self.colour_sets, cands, _pool(self.variant, symmetry),
                    free, self.symmetric, depth, limit, self.least, self.reach, tally,
                )  # fmt: skip
            finally:
                run.ended(tally)
                with self.counting:
                    del self.running[id(tally)]
                    self.nodes += int(tally[0])
            if tally[1]:
                raise _Stopped
            self.memo[key] = (total, True, guess) if guess >= 0 else (max(lower, total), False, -1)
            return self.memo[key][0]
        with self.counting:
            self.nodes += 1
        pool = _pool(self.variant, symmetry)
        bounds, solves, largest = _kernels.guess_bounds(
            self.table, pool, cands, self.variant.answer_slots, self.win, self.least
        )
        bounds[bounds < 0] = UNSOLVABLE  # a guess that splits nothing is never played
        order = np.lexsort((pool, ~solves, bounds))
        lower = max(lower, int(bounds[order[0]]))  # no guess does better than its bound
        if self.jobs > 1 and limit >= UNSOLVABLE:
            best, chosen = self._shared(cands, symmetry, depth, pool, bounds, largest, order)
            self.memo[key] = (best, True, chosen) if best < UNSOLVABLE else (best, False, -1)
            return best
        best, chosen = limit, -1
        for at in order:
            if bounds[at] >= best:
                break
            guess = int(pool[at])
            if largest[at] <= 1 or (largest[at] == 2 and depth >= 3):
                total = int(bounds[at])  # parts of one or two are solved at their least
            else:
                total = self._guess_cost(cands, guess, symmetry, depth, best, int(bounds[at]))
            if total < best:
                best, chosen = total, guess
                if n == self.variant.size:
                    self.upper = best
                if best <= lower:
                    break
        if chosen < 0:
            self.memo[key] = (max(lower, limit), False, -1)
            return max(lower, limit)
        self.memo[key] = (best, True, chosen)
        return best

    def _shared(self, cands, symmetry, depth, pool, bounds, largest, order) -> tuple[int, int]:
        """The cost and best guess of a set no bound limits yet (the whole, and the parts
        of each first guess tried), searched by ``jobs`` threads (the kernel lets go of
        the interpreter): the parts of the first guess side by side; then the other
        guesses side by side, each below the best total found so far, or up to it for a
        guess ahead of the best one in order, so that the guess chosen is the one a
        single thread chooses."""
        guess = int(pool[order[0]])
        later = symmetry.after(self.variant, guess)
        parts = [part for _, part in _parts(self.table[guess, cands], cands, self.win)]
        run = _run_here()
        with ThreadPoolExecutor(self.jobs) as threads, _stopped_on_error(run, threads):
            costs = threads.map(
                lambda part: run.doing(self.cost, part, later, depth - 1, UNSOLVABLE), parts
            )
            best = [len(cands) + sum(costs), 0]
            self.upper = best[0]
            lock = Lock()

            def attempt(place: int) -> None:
                at = order[place]
                with lock:
                    limit = best[0] + (place < best[1])
                if bounds[at] >= limit:
                    return
                if largest[at] <= 1 or (largest[at] == 2 and depth >= 3):
                    total = int(bounds[at])
                else:
                    guess = int(pool[at])
                    total = self._guess_cost(cands, guess, symmetry, depth, limit, int(bounds[at]))
                with lock:
                    if total < limit and (total, place) < tuple(best):
                        best[:] = total, place
                        self.upper = total

            list(threads.map(lambda place: run.doing(attempt, place), range(1, len(order))))
        return best[0], int(pool[order[best[1]]])

    def _guess_cost(self, cands, guess, symmetry, depth, best, bound) -> int:
        """The cost of playing ``guess`` on ``cands`` if below ``best``, else at least it;
        ``bound`` is its parts' least totals plus |cands|."""
        later = symmetry.after(self.variant, guess)
        parts = [part for _, part in _parts(self.table[guess, cands], cands, self.win)]
        parts.sort(key=len)
        for part in parts:
            floor = int(self.least[len(part)])
            limit = best - (bound - floor)
            cost = self.cost(part, later, depth - 1, limit)
            if cost >= limit:
                return best
            bound += cost - floor
        return bound

    def guess(self, cands, symmetry: Symmetry, depth: int, limit: int = UNSOLVABLE) -> int:
        """The best guess for ``cands`` (searched now, knowing that its cost is below
        ``limit``, unless ``cost`` has solved it)."""
        if len(cands) <= 2:
            return int(cands[0])
        key = (cands.tobytes(), depth if self.capped else 0)
        if not self.memo.get(key, (0, False))[1]:
            self.cost(cands, symmetry, depth if self.capped else self.variant.size, limit)
        return self.memo[key][2]

    def height(self, cands: np.ndarray) -> int:
        """The most guesses the strategy found for ``cands`` needs for one secret."""
        if len(cands) <= 2:
            return len(cands)
        key = cands.tobytes()
        if key not in self.heights:
            guess = self.guess(cands, self.plain, 0)
            parts = _parts(self.table[guess, cands], cands, self.win)
            self.heights[key] = 1 + max(self.height(part) for _, part in parts)
        return self.heights[key]

    def tree(self, cands: np.ndarray, symmetry: Symmetry, depth: int, total: int) -> Node:
        """The decision tree of the optimal strategy found for ``cands``, which costs
        ``total``; sets the kernel solved without keeping their guess are searched again,
        each below what the others leave of the total."""
        n = len(cands)
        if n == 1:
            return Node(int(cands[0]), ())
        if n == 2:
            guess = int(cands[0])
            return Node(guess, ((int(self.table[guess, cands[1]]), Node(int(cands[1]), ())),))
        guess = self.guess(cands, symmetry, depth, total + 1)
        answers, later = self.table[guess, cands], symmetry.after(self.variant, guess)
        parts = _parts(answers, cands, self.win)
        left = total - n - sum(int(self.least[len(part)]) for _, part in parts)
        children = []
        for answer, part in parts:
            left += int(self.least[len(part)])
            cost = self.cost(part, later, depth - 1, left + 1)
            children.append((answer, self.tree(part, later, depth - 1, cost)))
            left -= cost
        return Node(guess, tuple(children))

    def searched(self) -> int:
        """The sets searched so far, with those of the kernel calls under way and of the
        ``relaxed`` search."""
        with self.counting:
            under_way = sum(int(tally[0]) for tally in self.running.values())
            return self.nodes + under_way + (self.relaxed.searched() if self.relaxed else 0)


def _parts(answers: np.ndarray, cands: np.ndarray, solved: int) -> list:
    """(answer, the candidates that give it) for every answer but ``solved``, in
    increasing order of answers."""
    order = np.argsort(answers, kind="stable")
    cuts = np.flatnonzero(np.diff(answers[order])) + 1
    groups = np.split(order, cuts)
    return [(int(answers[g[0]]), cands[g]) for g in groups if answers[g[0]] != solved]


class Symmetry(NamedTuple):
    """The permutations of pegs and colours that map every guess played so far to
    itself, and so every set of candidates they leave to itself: each as the peg that
    each peg moves to and the colour each colour played becomes (-1 for the ``free``
    colours, which no guess has used and which may be permuted in any way too).

    >>> v = Variant(3, 3)
    >>> len(Symmetry.of(v).maps), len(Symmetry.of(v, [v.parse("112")]).maps)
    (6, 2)
    """

    maps: tuple
    free: tuple

    @classmethod
    def of(cls, variant: Variant, guesses=()) -> Symmetry:
        """The symmetry left after ``guesses``."""
        pegs = itertools.permutations(range(variant.pegs))
        symmetry = cls(
            tuple((peg, (-1,) * variant.colours) for peg in pegs), tuple(range(variant.colours))
        )
        for guess in guesses:
            symmetry = symmetry.after(variant, guess)
        return symmetry

    def after(self, variant: Variant, guess: int) -> Symmetry:
        """The maps of this symmetry that also keep ``guess``."""
        code = [int(colour) for colour in variant.codes()[guess]]
        new = set(code) & set(self.free)
        maps = []
        for peg, colour_of in self.maps:
            colour_of, taken = list(colour_of), set()
            for at, colour in enumerate(code):
                image = code[peg[at]]
                if colour_of[colour] < 0 and image in new and image not in taken:
                    colour_of[colour] = image
                    taken.add(image)
                elif colour_of[colour] != image:
                    break
            else:
                maps.append((peg, tuple(colour_of)))
        return Symmetry(tuple(maps), tuple(c for c in self.free if c not in new))


POOL_IMAGES = 1 << 18  # images (a code under a map) that ``_pool`` works on at once
ORBITS_FROM = 16  # maps from which ``_pool`` goes orbit by orbit (faster, it was measured)


@cache
def _pool(variant: Variant, symmetry: Symmetry) -> np.ndarray:
    """The guesses worth trying under ``symmetry``: the least code of each class of
    codes it maps to each other: each code's least image, some codes at a time; with many
    maps (up to 8! with 8 pegs), orbit by orbit instead: the lowest code of no orbit found
    yet starts the next one, and its images make up the orbit. Either way at most
    POOL_IMAGES images are held at once."""
    codes = variant.codes().astype(np.int64)
    values = codes @ _weights(variant)  # increasing: the codes are in lexicographic order
    maps = symmetry.maps
    if len(maps) < ORBITS_FROM:
        step = max(1, POOL_IMAGES // len(maps))
        least = np.concatenate(
            [
                _images(variant, symmetry.free, maps, codes[low : low + step]).min(axis=0)
                for low in range(0, variant.size, step)
            ]
        )
        pool = np.flatnonzero(values == least)
    else:
        # a code whose free colours are not in order of first appearance is in no pool
        identity = ((tuple(range(variant.pegs)), (-1,) * variant.colours),)
        ordered = _images(variant, symmetry.free, identity, codes)[0] == values
        taken, found = ~ordered, []
        for code in range(variant.size):
            if taken[code]:
                continue
            found.append(code)
            for low in range(0, len(maps), POOL_IMAGES):
                images = _images(
                    variant, symmetry.free, maps[low : low + POOL_IMAGES], codes[[code]]
                )
                taken[np.searchsorted(values, images.ravel())] = True
        pool = np.array(found)
    pool = pool.astype(np.int32)
    pool.flags.writeable = False
    return pool


def _weights(variant: Variant) -> np.ndarray:
    """What each peg's colour is worth in a code's value (its digits in base k)."""
    return variant.colours ** np.arange(variant.pegs - 1, -1, -1)


def _images(variant: Variant, free: tuple, maps, codes: np.ndarray) -> np.ndarray:
    """values[m, i]: the value of code i moved by map m, its ``free`` colours then renamed
    in order of first appearance (the least of the codes equal up to renaming them)."""
    free = np.asarray(free, np.int64)
    is_free = np.zeros(variant.colours, bool)
    is_free[free] = True
    pegs = np.array([peg for peg, _ in maps])
    colours = np.array([colour_of for _, colour_of in maps])
    colours = np.where(colours < 0, np.arange(variant.colours), colours)
    image = np.empty((len(pegs), variant.pegs, len(codes)), np.int64)
    rows, everyone = np.arange(len(pegs))[:, None], np.arange(len(codes))[None, :]
    for position in range(variant.pegs):
        image[rows, pegs[:, position, None], everyone] = colours[rows, codes[None, :, position]]
    image = image.transpose(0, 2, 1).reshape(-1, variant.pegs)
    at = np.arange(len(image))
    named = np.full((len(image), variant.colours), -1)
    met = np.zeros(len(image), np.int64)
    for position in range(variant.pegs):
        col = image[:, position]
        fresh = is_free[col] & (named[at, col] < 0)
        named[at[fresh], col[fresh]] = free[met[fresh]]
        met += fresh
        image[:, position] = np.where(is_free[col], named[at, col], col)
    return (image @ _weights(variant)).reshape(len(pegs), len(codes))


@cache
def least_totals(size: int, spread: int) -> np.ndarray:
    """For n = 0..size, the least cost of n secrets: one is found by the first guess,
    ``spread`` more by the second, spread² by the third, and so on.

    >>> least_totals(20, 13).tolist()[:6], int(least_totals(20, 13)[20])
    ([0, 1, 3, 5, 7, 9], 45)
    """
    least = np.zeros(size + 1, np.int64)
    level, room, left = 1, 1, 0
    for n in range(1, size + 1):
        if left == room:
            level, room, left = level + 1, room * spread, 0
        least[n] = least[n - 1] + level
        left += 1
    least.flags.writeable = False
    return least
