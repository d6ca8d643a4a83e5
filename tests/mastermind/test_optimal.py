"""The optimal strategy: totals beside a plain exhaustive search written here, the worst-case
cap, strategy trees and their check, the cache of solved trees, and bad input."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mastermind.trees import one_peg_tree

import hamle.mastermind as mm
from hamle.mastermind import _kernels, optimal
from hamle.mastermind.codes import counted
from hamle.mastermind.tree import TreeError, load, strategy_tree, tree_json, verify

SMALL = [(2, 2, True), (2, 3, True), (3, 2, True), (2, 4, True), (3, 3, True), (3, 4, True)]
SMALL += [(2, 3, False), (2, 4, False), (3, 4, False), (3, 5, False)]


def plain_optimum(variant: mm.Variant, max_guesses: int | None) -> int | None:
    """The least total over every strategy, by trying every code at every set (no bounds,
    no symmetry); None when no strategy stays within ``max_guesses``."""
    total = plain_cost(variant)(frozenset(range(variant.size)), max_guesses or variant.size)
    return None if total == float("inf") else int(total)


@cache
def plain_cost(variant: mm.Variant):
    """cost(secrets, guesses left): the least total of a set of secrets, inf if none."""
    codes = [tuple(int(c) for c in row) for row in variant.codes()]

    def answer(secret, guess):
        black = sum(s == g for s, g in zip(secret, guess, strict=True))
        common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
        return black, common - black

    answers = [[answer(secret, guess) for secret in codes] for guess in codes]

    @cache
    def cost(secrets: frozenset, left: int) -> float:
        if len(secrets) == 1:
            return 1 if left >= 1 else float("inf")
        if left <= 1:
            return float("inf")
        best = float("inf")
        for guess in range(len(codes)):
            parts: dict = {}
            row = answers[guess]
            for s in secrets:
                if s != guess:
                    parts.setdefault(row[s], set()).add(s)
            if any(len(p) == len(secrets) for p in parts.values()):
                continue
            best = min(
                best, len(secrets) + sum(cost(frozenset(p), left - 1) for p in parts.values())
            )
        return best

    return cost


@pytest.mark.parametrize("spec", SMALL, ids=str)
def test_optimal_totals_agree_with_a_plain_search(spec):
    variant = mm.Variant(*spec)
    solution = optimal.solve(variant)
    assert solution.total == plain_optimum(variant, None)
    check = verify(tree_json(solution.tree, variant, "optimal"))
    assert check.total == solution.total
    assert mm.evaluate("optimal", variant).histogram == check.histogram
    assert solution.total <= min(mm.evaluate(name, variant).total for name in mm.HEURISTICS)


@pytest.mark.parametrize("spec", [(3, 3, True), (3, 4, True), (3, 4, False)], ids=str)
def test_capped_totals_agree_with_a_plain_search(spec):
    variant = mm.Variant(*spec)
    free = optimal.solve(variant)
    worst = verify(tree_json(free.tree, variant, "optimal")).maximum
    for cap in range(2, worst + 1):
        expected = plain_optimum(variant, cap)
        if expected is None:
            with pytest.raises(mm.MastermindError, match=f"within {cap} guesses; allow more"):
                optimal.solve(variant, cap)
            continue
        solution = optimal.solve(variant, cap)
        check = verify(tree_json(solution.tree, variant, "optimal", cap))
        assert solution.total == check.total == expected >= free.total
        assert check.maximum <= cap


def test_a_cap_no_strategy_can_meet_is_refused_before_any_search(monkeypatch):
    """Refused once the free search had run: 13 s on 4×7, minutes on Bulls and Cows."""

    def searched(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr(optimal, "_Search", searched)
    for variant, cap in ((mm.Variant(4, 6), 3), (mm.Variant(4, 10, repeat=False), 1)):
        with pytest.raises(mm.MastermindError, match=f"within {counted(cap, 'guess')}; allow"):
            optimal.solve(variant, cap)
    # (a bound only: every cap it lets through for (3, 3, True) is searched, as above)
    assert optimal.reach(mm.Variant(3, 3), 2) == 1 + 8 < 27 <= optimal.reach(mm.Variant(3, 3), 3)
    assert optimal.reach(mm.Variant(3, 3), 10**9) == 1 + 8 + 64  # (at once: no further)


@pytest.mark.parametrize("spec", [(3, 3, True), (2, 4, True), (3, 4, True), (3, 4, False)])
@given(data=st.data())
@settings(max_examples=25, deadline=None)
def test_the_kernel_costs_sets_as_a_plain_search_does(spec, data):
    variant = mm.Variant(*spec)
    codes = data.draw(st.sets(st.integers(0, variant.size - 1), min_size=1, max_size=16))
    depth = data.draw(st.integers(1, 5))
    exact = plain_cost(variant)(frozenset(codes), depth)
    limit = data.draw(st.sampled_from([optimal.UNSOLVABLE, 2 * len(codes), 3 * len(codes)]))
    search = optimal._Search(variant, depth)
    cands = np.array(sorted(codes), np.int32)
    everything = np.arange(variant.size, dtype=np.int32)
    tally = np.zeros(2, np.int64)
    cost, guess = _kernels.optimal_cost(
        search.blocks, variant.answer_slots, search.answers, search.digits, variant.repeat,
        search.colour_sets, cands, everything, 0, True, depth, limit, search.least,
        search.reach, tally,
    )  # fmt: skip
    if exact < limit:
        assert cost == exact
        answers = variant.feedback(guess, cands)
        parts = [frozenset(cands[answers == a].tolist()) for a in set(answers.tolist())]
        won = variant.solved in answers
        below = [plain_cost(variant)(part, depth - 1) for part in parts if part != {guess}]
        assert len(codes) + sum(below) == exact or (won and len(codes) == 1)
    else:
        assert cost >= limit and guess == -1


@pytest.mark.parametrize("spec", [(3, 3, True), (3, 4, True), (3, 4, False)], ids=str)
def test_searching_every_set_of_a_symmetric_history_in_python_changes_nothing(spec, monkeypatch):
    variant = mm.Variant(*spec)
    monkeypatch.setattr(optimal, "KERNEL_SETS", 0)
    assert optimal.solve(variant).total == plain_optimum(variant, None)
    assert optimal.solve(variant, 4).total == plain_optimum(variant, 4)


@pytest.mark.parametrize("switches", [(False, True), (True, False), (False, False)])
@pytest.mark.parametrize("spec", [(3, 3, True), (3, 4, False)], ids=str)
def test_symmetry_and_memo_switched_off_change_no_total(spec, switches):
    variant = mm.Variant(*spec)
    symmetry, memo = switches
    for cap in (None, 4):
        solution = optimal.solve(variant, cap, symmetry=symmetry, memo=memo)
        assert solution.total == plain_optimum(variant, cap)
        assert verify(tree_json(solution.tree, variant, "optimal", cap)).total == solution.total


@pytest.mark.parametrize("spec", [(3, 4, True), (3, 5, False), (4, 4, True)], ids=str)
def test_two_threads_find_the_same_tree(spec, monkeypatch):
    variant = mm.Variant(*spec)
    monkeypatch.setattr(optimal, "KERNEL_SETS", 0)  # more of the search in the threads' hands
    for cap in (None, 4):
        alone, shared = optimal.solve(variant, cap), optimal.solve(variant, cap, jobs=2)
        assert (shared.total, shared.tree) == (alone.total, alone.tree)


def test_progress_is_reported_during_one_long_kernel_call(monkeypatch):
    monkeypatch.setattr(optimal, "REPORT_SECONDS", 0.005)
    calls = []
    # without symmetry, the whole search (about a second) is one call of the kernel
    solution = optimal.solve(mm.Variant(3, 6), symmetry=False, progress=lambda *a: calls.append(a))
    nodes = [call[0] for call in calls]
    assert nodes == sorted(nodes) and len(set(nodes) - {0, solution.nodes}) >= 2
    assert all(lower <= solution.total for _, lower, _ in calls)


def test_the_optimum_beats_every_heuristic_on_4x4():
    variant = mm.Variant(4, 4)
    total = optimal.solve(variant).total
    assert total == mm.evaluate("optimal", variant).total
    assert total < min(mm.evaluate(name, variant).total for name in mm.HEURISTICS)


@pytest.mark.parametrize("cap", [0, -1, 2.5, True, "5"])
def test_bad_caps_are_clear_errors(cap):
    with pytest.raises(mm.MastermindError, match=r"^max_guesses must be a whole number"):
        optimal.solve(mm.Variant(2, 2), cap)


def test_a_variant_without_a_table_is_refused():
    with pytest.raises(mm.MastermindError, match="too big to search"):
        optimal.solve(mm.Variant(6, 9))


def test_off_tree_histories_get_the_optimum_of_their_candidates():
    variant = mm.Variant(3, 4)
    strategy = mm.get_strategy("optimal")
    history = mm.History(variant).then(variant.parse("444"), variant.answer(0, 0))
    assert variant.parse("444") != strategy.next_guess(mm.History(variant))
    cands = history.candidates()
    guess = strategy.next_guess(history)
    answers = variant.feedback(guess, cands)
    parts = [cands[answers == a] for a in np.unique(answers) if a != variant.solved]

    def least(codes) -> int:  # (by the plain search, no bound and no symmetry)
        return plain_cost(variant)(frozenset(int(code) for code in codes), variant.size)

    assert len(cands) + sum(least(part) for part in parts) == least(cands) == 73


def brute_force_pool(variant: mm.Variant, guesses) -> list[int]:
    """The least code of each orbit of the peg and colour permutations that keep every
    one of ``guesses``, the group found by trying all of them."""
    codes = [tuple(int(c) for c in row) for row in variant.codes()]
    index = {code: i for i, code in enumerate(codes)}
    group = []
    for pegs in itertools.permutations(range(variant.pegs)):
        for colours in itertools.permutations(range(variant.colours)):

            def move(code, pegs=pegs, colours=colours):
                image = [0] * len(code)
                for at, colour in enumerate(code):
                    image[pegs[at]] = colours[colour]
                return tuple(image)

            if all(move(codes[g]) == codes[g] for g in guesses):
                group.append(move)
    return sorted({min(index[move(code)] for move in group) for code in codes})


@pytest.mark.parametrize(
    "spec", [(3, 3, True), (3, 4, True), (2, 4, True), (3, 4, False), (4, 3, True)]
)
@given(data=st.data())
@settings(max_examples=15, deadline=None)
def test_symmetry_pools_are_the_orbits_of_the_guesses_stabiliser(spec, data):
    variant = mm.Variant(*spec)
    guesses = data.draw(st.lists(st.integers(0, variant.size - 1), max_size=3))
    symmetry = optimal.Symmetry.of(variant, guesses)
    assert optimal._pool(variant, symmetry).tolist() == brute_force_pool(variant, guesses)


def test_guess_bounds_kernel_agrees_with_counting_by_hand():
    from hamle.mastermind import _kernels

    variant = mm.Variant(3, 4)
    table = mm.feedback_table(variant)
    least = optimal.least_totals(variant.size, 8)
    rng = np.random.default_rng(7)
    for n in (1, 3, 9, 40):
        cands = np.sort(rng.choice(variant.size, n, replace=False)).astype(np.int32)
        pool = np.arange(variant.size, dtype=np.int32)
        bounds, solves, largest = _kernels.guess_bounds(
            table, pool, cands, variant.answer_slots, variant.solved, least
        )
        for g in pool:
            sizes = np.bincount(table[g, cands], minlength=variant.answer_slots)
            assert solves[g] == (g in cands)
            sizes[variant.solved] = 0
            if sizes.max() == n:  # the guess splits nothing
                assert bounds[g] == -1
            else:
                assert (bounds[g], largest[g]) == (n + least[sizes].sum(), sizes.max())


# --- trees and their check -------------------------------------------------------------


def tree_of(spec=(3, 4, True)) -> dict:
    variant = mm.Variant(*spec)
    return tree_json(optimal.solve(variant).tree, variant, "optimal")


def first_leaf(node: dict, path: str = "root") -> tuple[dict, dict, str, str]:
    """(parent, leaf, answer key, path) of the first leaf under ``node``."""
    for key, child in node["answers"].items():
        if not child.get("answers"):
            return node, child, key, f"{path} → {key}"
    key, child = next(iter(node["answers"].items()))
    return first_leaf(child, f"{path} → {key}")


def test_heuristic_trees_check_out_as_their_evaluation():
    variant = mm.Variant(4, 4)
    for name in ("minimax", "most-parts", "first-consistent"):
        data = tree_json(strategy_tree(mm.get_strategy(name), variant), variant, name)
        assert (
            verify(json.loads(json.dumps(data))).histogram == mm.evaluate(name, variant).histogram
        )


def test_a_wrong_leaf_guess_is_named():
    data = tree_of()
    _, leaf, _, path = first_leaf(data["root"])
    leaf["guess"] = "111" if leaf["guess"] != "111" else "222"
    with pytest.raises(
        TreeError, match=f"is not found: {path} \\(guess {leaf['guess']}\\) is a leaf"
    ):
        verify(data)


def test_a_missing_answer_is_named():
    data = tree_of()
    key = sorted(data["root"]["answers"])[0]
    del data["root"]["answers"][key]
    with pytest.raises(TreeError, match=f"root \\(guess .*\\) has no child for answer '{key}'"):
        verify(data)


def test_a_small_tree_of_a_large_variant_is_refused_by_its_count_with_little_memory(tmp_path):
    """A file of a hundred bytes declaring 8 pegs of 6 colours took 750 MB and seconds to be
    refused: the tables of every code were built before the tree was looked at."""
    tree = {
        "format": "hamle-mastermind-tree",
        "version": 1,
        "variant": {"pegs": 8, "colours": 6, "repeat": True},
        "root": {"guess": "11111111", "answers": {"0 0": {"guess": "22222222"}}},
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(tree))
    script = (
        "import re\n"
        "from hamle.mastermind.tree import TreeError, load, verify\n"
        "try:\n"
        f"    verify(load({str(path)!r}))\n"
        "except TreeError as error:\n"
        "    print(error)\n"
        "status = open('/proc/self/status').read()\n"  # (ru_maxrss counts the parent's)
        "print(int(re.search(r'VmHWM:\\s*(\\d+)', status)[1]) // 1024)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    said, megabytes = done.stdout.splitlines()
    assert said == (
        "the tree has 2 nodes for 1,679,616 secrets: a node finds at most the secret it "
        "guesses, so 1,679,614 or more are not found"
    )
    assert int(megabytes) < 150, megabytes


def test_a_tree_of_as_many_nodes_as_codes_names_the_secret_it_fails_whatever_the_variant():
    variant = mm.Variant(7, 3)  # 2,187 codes: past NAMED_UP_TO
    data = tree_json(strategy_tree("first-consistent", variant), variant, "first-consistent")
    assert verify(data).total == mm.evaluate("first-consistent", variant).total
    _, leaf, _, path = first_leaf(data["root"])
    leaf["guess"] = "1111111" if leaf["guess"] != "1111111" else "2222222"
    with pytest.raises(TreeError, match=f"is not found: {path} \\(guess {leaf['guess']}\\)"):
        verify(data)


def test_a_leaf_for_two_secrets_is_named():
    data = tree_of()
    parent, leaf, key, _ = first_leaf(data["root"])
    other = next(
        k for k, child in parent["answers"].items() if k != key and not child.get("answers")
    )
    parent["answers"][other] = dict(leaf)  # the other secret now reaches a leaf for this one
    with pytest.raises(TreeError, match="is a leaf"):
        verify(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a Mastermind strategy tree"),
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.update(variant={"pegs": 3}), "'variant' must give"),
        (lambda d: d["variant"].update(pegs=0), "pegs must be"),
        (lambda d: d.pop("root"), "no 'root'"),
        (lambda d: d.update(root={"guess": 5}), "root: a node must be"),
        (lambda d: d["root"].update(guess="9999"), "root: '9999' is not a code"),
        (lambda d: d["root"].update(answers=[1]), "root: 'answers' must be an object"),
        (lambda d: d["root"].update(answers=[]), "root: 'answers' must be an object"),
        (lambda d: d["variant"].update(repeat="false"), "repeat must be true or false"),
    ],
)
def test_malformed_trees_are_clear_errors(change, message):
    data = tree_of()
    change(data)
    with pytest.raises(TreeError, match=message):
        verify(data)


# --- the cache of solved trees ---------------------------------------------------------


def test_a_solved_tree_is_read_back_and_a_bad_one_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    variant = mm.Variant(3, 3)
    first = optimal.cached_tree(variant)
    path = optimal.tree_path(variant, None)
    assert json.loads(path.read_text()) == first and first["total"] == 73

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(optimal, "_TREES", {})
    monkeypatch.setattr(optimal, "solve", no_search)
    assert optimal.cached_tree(variant) == first  # a second process reads it
    monkeypatch.undo()
    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    foreign = tree_json(strategy_tree(mm.get_strategy("minimax"), variant), variant, "minimax")
    for damage in ("{not json", json.dumps(tree_of((2, 3, True))), json.dumps(foreign)):
        path.write_text(damage)
        monkeypatch.setattr(optimal, "_TREES", {})
        assert optimal.cached_tree(variant) == first
        assert json.loads(path.read_text()) == first


def no_cache_settings(monkeypatch, xdg: str, home: str | None, listed: str | None) -> None:
    """XDG_CACHE_HOME and HOME (None: unset) as given, no HAMLE_CACHE_DIR, and the password
    database giving the user the home ``listed`` (None: no entry for the user)."""
    import pwd

    def getpwuid(uid):
        if listed is None:
            raise KeyError(f"getpwuid(): uid not found: {uid}")
        return SimpleNamespace(pw_dir=listed)

    monkeypatch.delenv("HAMLE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    if home is None:
        monkeypatch.delenv("HOME", raising=False)
    else:
        monkeypatch.setenv("HOME", home)
    monkeypatch.setattr(pwd, "getpwuid", getpwuid)


@pytest.mark.parametrize(
    ("xdg", "home", "listed", "folder"),
    [
        ("/xdg", "/home/ada", None, "/xdg/hamle"),
        ("", "/home/ada", "/users/ada", "/home/ada/.cache/hamle"),
        ("cache", "/home/ada", None, "/home/ada/.cache/hamle"),  # (relative: unset, as XDG says)
        ("", "", "/users/ada", "/users/ada/.cache/hamle"),  # (empty: as unset, not /.cache)
        ("", None, "/users/ada", "/users/ada/.cache/hamle"),
        ("", "home", "/users/ada", "/users/ada/.cache/hamle"),
        ("", "", None, None),  # (no home at all: no cache)
        ("", None, None, None),
        ("", "", "", None),
    ],
)
def test_the_cache_directory_takes_an_empty_or_relative_home_as_unset(
    monkeypatch, xdg, home, listed, folder
):
    no_cache_settings(monkeypatch, xdg, home, listed)
    assert optimal.cache_dir() == (None if folder is None else Path(folder))


def test_without_a_cache_directory_a_tree_is_solved_and_kept_in_the_process_only(monkeypatch):
    no_cache_settings(monkeypatch, "", "", None)
    assert optimal.cache_dir() is None and optimal.tree_path(mm.Variant(2, 3), None) is None
    monkeypatch.setattr(optimal, "_TREES", {})
    variant = mm.Variant(2, 3)
    assert optimal.stored_tree(variant) is None
    tree = optimal.cached_tree(variant)
    assert verify(tree).total == tree["total"] and optimal.stored_tree(variant) == tree


def test_a_stale_tree_file_is_checked_once_until_it_changes(tmp_path, monkeypatch):
    from hamle.mastermind import tree

    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    monkeypatch.setattr(optimal, "_REFUSED", {}, raising=False)
    variant = mm.Variant(3, 3)
    stale = tree_json(strategy_tree(mm.get_strategy("minimax"), variant), variant, "optimal")
    stale["total"] = verify(stale).total  # a valid tree, not the optimal one: it says so
    stale["max_guesses"] = 2
    path = optimal.tree_path(variant, None)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(stale))
    checks = []

    def counted(data):
        checks.append(1)
        return verify(data)

    monkeypatch.setattr(tree, "verify", counted)
    assert optimal.stored_tree(variant) is None
    assert optimal.stored_tree(variant) is None and optimal.stored_tree(variant) is None
    assert len(checks) == 1
    good = optimal.cached_tree(variant)  # solved and written again, over the stale file
    monkeypatch.setattr(optimal, "_TREES", {})
    assert optimal.stored_tree(variant) == good and len(checks) == 2


def test_a_cap_that_caps_nothing_is_no_cap(tmp_path, monkeypatch):
    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    monkeypatch.setattr(optimal, "_HEIGHTS", {}, raising=False)
    variant = mm.Variant(3, 3)  # the optimum needs 4 guesses at most
    for cap in (50, 4, 5):
        data = optimal.cached_tree(variant, cap)
        assert data["max_guesses"] is None and data["total"] == 73
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mastermind-optimal-3x3.json"]
    assert optimal.solve(variant, 4).max_guesses is None
    assert optimal.effective_cap(variant, 100) is optimal.effective_cap(variant, 4) is None
    assert optimal.effective_cap(variant, 3) == 3  # (no strategy keeps it: 4 are needed)
    assert optimal.solve(mm.Variant(4, 4), 4).max_guesses == 4  # the free optimum needs 5


# --- bounded memory on many pegs ---------------------------------------------------------


def test_the_pool_of_eight_pegs_takes_little_memory():
    import tracemalloc

    variant = mm.Variant(8, 2)
    symmetry = optimal.Symmetry.of(variant)  # 8! peg permutations
    tracemalloc.start()
    try:
        pool = optimal._pool.__wrapped__(variant, symmetry)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [variant.format(code) for code in pool] == [
        "11111111", "11111112", "11111122", "11111222", "11112222"
    ]  # fmt: skip
    assert peak < 64 * 2**20


@pytest.mark.parametrize("orbits_from", [1, 10**9], ids=["orbits", "images"])
@pytest.mark.parametrize("spec", [(3, 3, True), (3, 4, False), (4, 3, True)], ids=str)
def test_pools_a_few_images_at_a_time_are_the_orbits(spec, orbits_from, monkeypatch):
    monkeypatch.setattr(optimal, "POOL_IMAGES", 5)
    monkeypatch.setattr(optimal, "ORBITS_FROM", orbits_from)
    variant = mm.Variant(*spec)
    rng = np.random.default_rng(3)
    for size in (0, 1, 1, 2):
        guesses = rng.integers(variant.size, size=size).tolist()
        symmetry = optimal.Symmetry.of(variant, guesses)
        pool = optimal._pool.__wrapped__(variant, symmetry)
        assert pool.tolist() == brute_force_pool(variant, guesses)


def test_seven_pegs_are_solved():
    variant = mm.Variant(7, 2)
    solution = optimal.solve(variant)
    assert verify(tree_json(solution.tree, variant, "optimal")).total == solution.total == 496


# --- a status line for guesses that take a while -----------------------------------------


def test_next_guess_reports_the_search_of_a_tree_and_off_it(tmp_path, monkeypatch):
    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    monkeypatch.setattr(optimal, "REPORT_SECONDS", 0.0001)
    monkeypatch.setattr(optimal._Search, "cost", _slowly(optimal._Search.cost))
    variant = mm.Variant(4, 4)
    calls = []
    first = optimal.next_guess(mm.History(variant), progress=lambda *a: calls.append(a))
    assert calls and variant.format(first) == optimal.cached_tree(variant)["root"]["guess"]
    assert calls[-1][1] == optimal.least_totals(256, 13)[256]  # the total of every secret
    off = mm.History(variant).then("4444", (0, 0)).then("3333", (0, 0))
    calls.clear()
    guess = optimal.next_guess(off, progress=lambda *a: calls.append(a))
    assert calls and all(upper is None for _, _, upper in calls)
    assert calls[-1][1] == optimal.least_totals(16, 13)[16]  # the 16 candidates left
    assert guess == mm.get_strategy("optimal").next_guess(off)


def _slowly(cost):
    """``_Search.cost`` 10 ms slower on sets of 16 codes or more, so that the reports of a
    search of a few milliseconds fall within it (a sleep lets go of the interpreter)."""

    def slow(self, cands, *args):
        if len(cands) >= 16:
            time.sleep(0.01)
        return cost(self, cands, *args)

    return slow


# --- strategy trees ----------------------------------------------------------------------


def test_a_strategy_tree_is_refused_where_the_strategy_is(monkeypatch):
    from hamle.mastermind.strategies import Partition

    monkeypatch.setattr(Partition, "largest", 100)
    with pytest.raises(mm.MastermindError, match="minimax on 125 codes would take hours"):
        strategy_tree(mm.get_strategy("minimax"), mm.Variant(3, 5))
    with pytest.raises(mm.MastermindError, match="strategy must be a Strategy or one of"):
        strategy_tree(None, mm.Variant(3, 5))


@pytest.mark.parametrize("name", ["first-consistent", "random-consistent", "minimax", "optimal"])
def test_a_strategy_tree_reuses_the_candidates_of_its_nodes(name, monkeypatch):
    variant = mm.Variant(4, 4)
    strategy = mm.get_strategy(name)

    def plain(history, cands):  # the guess at every history, asked for the plain way
        if len(cands) == 1:
            return optimal.Node(int(cands[0]), ())
        guess = strategy.next_guess(history)
        answers = variant.feedback(guess, cands)
        return optimal.Node(
            guess,
            tuple(
                (int(a), plain(history.then(guess, int(a)), cands[answers == a]))
                for a in np.unique(answers)
                if a != variant.solved
            ),
        )

    expected = plain(mm.History(variant), np.arange(variant.size))

    def recount(self):
        raise AssertionError("candidates counted again from the whole code space")

    monkeypatch.setattr(mm.History, "candidates", recount)
    assert strategy_tree(name, variant) == expected


# --- the check of tree files ---------------------------------------------------------------


def four_pegs_tree() -> dict:
    return tree_of((4, 3, True))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["root"]["answers"].update(x={"guess": "zzzz"}),
            "root: 'x' is not an answer: write black and white",
        ),
        (
            lambda d: d["root"]["answers"].update({"5 0": {"guess": "1111"}}),
            "root → 5 0: 5 black and 0 white make more than 4 pegs",
        ),
        (
            lambda d: d["root"]["answers"].update({"3 1": {"guess": "1111"}}),
            "root → 3 1: 3 black and 1 white cannot happen with 4 pegs",
        ),
        (
            lambda d: d["root"]["answers"].update({"4 0": {"guess": "1111"}}),
            "root → 4 0: 4 black ends the game",
        ),
        (
            lambda d: d["root"]["answers"].update({"1 02": {"guess": "1111"}}),
            "root: '1 02' is not an answer: write black and white without leading zeros",
        ),
        (lambda d: d.update(comment="hi"), "unknown key 'comment' in the tree"),
        (lambda d: d["root"].update(note=1), "root: unknown key 'note'"),
        (lambda d: d.update(max_guesses=3), "'max_guesses' is 3, but the tree needs 4 guesses"),
        (lambda d: d.update(total=1), "'total' is 1, but the tree's total is"),
        (lambda d: d.update(total="many"), "'total' must be a whole number from 1 on"),
        (lambda d: d.update(max_guesses=True), "'max_guesses' must be a whole number"),
        (lambda d: d.update(strategy=5), "'strategy' must be a name"),
    ],
)
def test_malformed_trees_and_false_claims_are_named(change, message):
    data = four_pegs_tree()
    change(data)
    with pytest.raises(TreeError, match=message):
        verify(data)


def test_a_node_no_secret_reaches_is_named():
    data = four_pegs_tree()
    parent, _, _, path = first_leaf(data["root"])
    missing = next(
        f"{b} {w}"
        for b in range(4)
        for w in range(5 - b)
        if (b, w) != (3, 1) and f"{b} {w}" not in parent["answers"]
    )
    parent["answers"][missing] = {"guess": "1111"}
    parent_path = path.rsplit(" → ", 1)[0]
    with pytest.raises(TreeError, match=f"^{parent_path} → {missing}: no secret reaches"):
        verify(data)


def test_true_claims_check_out():
    variant = mm.Variant(4, 3)
    data = four_pegs_tree()
    check = verify(data)
    data.update(total=check.total, max_guesses=check.maximum, strategy=None)
    assert verify(data).total == check.total == optimal.solve(variant).total


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=True), "tree format version true is not 1"),
        (lambda d: d.update(version=1.0), "tree format version 1.0 is not 1"),
        (lambda d: d.update(version="1"), "tree format version '1' is not 1"),
        (
            lambda d: d["variant"].update(pegs=True),
            "'variant': pegs must be a whole number, not true",
        ),
        (lambda d: d["variant"].update(colours=None), "colours must be a whole number, not null"),
        (lambda d: d["variant"].update(repeat=None), "repeat must be true or false, not null"),
        (lambda d: d.update(total=False), "'total' must be a whole number from 1 on, not false"),
        (lambda d: d.update(seed=-1), "'seed' must be a whole number from 0 on, not -1"),
        (lambda d: d.update(seed="0"), "'seed' must be a whole number from 0 on, not '0'"),
        (lambda d: d["root"].update(guess=" 1 "), "root: ' 1 ' is not a code: write its 1 digit"),
        (lambda d: d["root"].update(guess=",1"), "root: ',1' is not a code"),
        (lambda d: d["root"].update(guess="１"), "root: '１' is not a code"),
        (lambda d: d["root"].update(guess="3"), "root: '3': colour 3 at position 1 is not in 1-2"),
        (
            lambda d: d["root"].update(guess="x" * 1000),
            "root: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' is not a code",
        ),
        (
            lambda d: d["root"]["answers"].update({"0" * 32 + " 0": {"guess": "1"}}),
            f"root: '{'0' * 32} 0' is not an answer: write black and white without leading "
            "zeros, like '1 0'",
        ),
        (
            lambda d: d["root"]["answers"].update({"9" * 5000 + " 0": {"guess": "1"}}),
            "root: '9999999999999999999999999999999999999999…' is not an answer: black and "
            "white add up to at most 1",
        ),
        (lambda d: d.update(total=10**5000), "'total' is a number of 5,001 digits, but the"),
        (lambda d: d.update(max_guesses=-(10**5000)), "not a number of 5,001 digits"),
        (lambda d: d.update(strategy=[10**5000]), "not a list holding a number too long"),
        (lambda d: d["variant"].update(pegs=10**5000), "pegs must be 1 to 8, not a number of"),
        (lambda d: d.update({"x" * 1000: 1}), "unknown key 'xxxxxxxx"),
    ],
)
def test_a_tree_is_read_as_the_readme_says_and_long_values_are_cut_short(change, message):
    data = one_peg_tree()
    change(data)
    with pytest.raises(TreeError) as caught:
        verify(data)
    assert message in str(caught.value) and len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            json.dumps(one_peg_tree()).replace('"version": 1', '"variant": 0, "version": 1'),
            "the name 'variant' is given twice in one object",
        ),
        (
            json.dumps(one_peg_tree(total=3)).replace('"total": 3', '"total": 99, "total": 3'),
            "the name 'total' is given twice in one object",
        ),
        (
            json.dumps(one_peg_tree()).replace('{"0 0"', '{"0 0": {"guess": "1"}, "0 0"'),
            "the name '0 0' is given twice in one object",  # (a subtree silently dropped)
        ),
        (
            json.dumps(one_peg_tree()).replace('"guess": "1"', '"guess": "2", "guess": "1"'),
            "the name 'guess' is given twice in one object",
        ),
        ('{"total": ' + "9" * 5000 + "}", "a number of 5,000 digits is too long to read"),
        ("[" * 100_000, "is nested too deeply to be a tree file"),
        ("{", "is not JSON: Expecting property name"),
    ],
)
def test_a_tree_file_is_read_strictly(tmp_path, text, message):
    path = tmp_path / "tree.json"
    path.write_text(text)
    with pytest.raises(TreeError) as caught:
        load(path)
    said = str(caught.value)
    assert said.startswith(str(path)) and message in said
    path.write_bytes(b"\xff")
    with pytest.raises(TreeError, match="is not JSON: 'utf-8' codec can't decode"):
        load(path)
    with pytest.raises(TreeError, match=r"cannot read .*: No such file"):
        load(tmp_path / "none.json")
    path.write_text(json.dumps(one_peg_tree()))
    assert verify(load(path)).total == 3


def test_only_a_file_of_a_tree_files_size_is_read(tmp_path, monkeypatch):
    import os

    from hamle.mastermind import tree

    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # opening it would wait for a writer for ever
    for path in ("/dev/zero", pipe, tmp_path):
        with pytest.raises(TreeError, match=r"cannot read .*: it is not a file"):
            load(path)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(one_peg_tree()))
    monkeypatch.setattr(tree, "MAX_TREE_BYTES", 10)
    with pytest.raises(TreeError, match=r"big.json is larger than 10 bytes, more than any tree"):
        load(big)
    monkeypatch.setattr(tree, "MAX_TREE_BYTES", big.stat().st_size)
    assert verify(load(big)).total == 3
    # Many small objects or values took gigabytes to read (87 million {} in 256 MB: 6.7 GB).
    objects, commas = big.read_bytes().count(b"{"), big.read_bytes().count(b",")
    monkeypatch.setattr(tree, "MAX_TREE_OBJECTS", objects - 1)
    with pytest.raises(TreeError, match=rf"holds more than {objects - 1} objects, more than any"):
        load(big)
    monkeypatch.setattr(tree, "MAX_TREE_OBJECTS", objects)
    monkeypatch.setattr(tree, "MAX_TREE_COMMAS", commas - 1)
    with pytest.raises(TreeError, match=rf"holds more than {commas - 1} commas, more than any"):
        load(big)
    monkeypatch.setattr(tree, "MAX_TREE_COMMAS", commas)
    assert verify(load(big)).total == 3


def test_a_cached_tree_that_gives_a_name_twice_is_set_aside(tmp_path, monkeypatch):
    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    monkeypatch.setattr(optimal, "_REFUSED", {})
    variant = mm.Variant(2, 2)
    good = optimal.cached_tree(variant)
    monkeypatch.setattr(optimal, "_TREES", {})
    path = optimal.tree_path(variant, None)
    text = json.dumps(good)
    path.write_text(text.replace('"total":', '"total": 1, "total":'))  # the last one is right
    assert json.loads(path.read_text()) == good  # as JSON readers see it
    assert optimal.stored_tree(variant) is None
    path.write_text(text)
    assert optimal.stored_tree(variant) == good


def test_a_search_shared_by_threads_stops_at_once_when_interrupted(monkeypatch):
    """An interrupt (here a signal sent to the waiting main thread at the 50th set) stops
    the search: no set is searched once it is given up, where its threads used to search
    their parts to the end (about 600 more sets) before the interrupt could end the call.
    Sets of more than 20 codes are searched in Python, so that a part is many sets."""
    import signal
    import threading

    class Interrupted(Exception):
        pass

    def interrupt(*_):
        raise Interrupted

    entered, searched_while_stopping = [], []
    cost = optimal._Search.cost

    def watched(search, *args):
        entered.append(args)
        if len(entered) == 50:  # (by then every part is handed out)
            signal.pthread_kill(main.ident, signal.SIGUSR1)
        stopping = optimal._run_here().stopped
        total = cost(search, *args)
        if stopping:
            searched_while_stopping.append(args)
        return total

    main = threading.main_thread()
    monkeypatch.setattr(optimal, "KERNEL_SETS", 20)
    monkeypatch.setattr(optimal._Search, "cost", watched)
    previous = signal.signal(signal.SIGUSR1, interrupt)
    try:
        with pytest.raises(Interrupted):
            optimal.solve(mm.Variant(4, 5), jobs=2)
    finally:
        signal.signal(signal.SIGUSR1, previous)
    _given_up_threads_end()
    assert len(entered) >= 50 and searched_while_stopping == []


def _searching(search: optimal._Search) -> None:
    """Waits until a kernel call of ``search`` has searched a set."""
    while search.searched() == 0:
        time.sleep(0.01)


def test_a_kernel_call_given_up_returns_at_its_next_set():
    """One kernel call on every code of 4 × 7 without symmetry runs for many minutes; its
    run given up, it returns at once and its search raises; the search, shared with
    another run, goes on answering there."""
    import threading

    variant = mm.Variant(4, 7)
    search = optimal._Search(variant, None)
    everything = np.arange(variant.size, dtype=np.int32)
    run, raised = optimal._Run(), []

    def whole() -> None:
        try:
            search.cost(everything, search.plain, variant.size, optimal.UNSOLVABLE)
        except optimal._Stopped:
            raised.append("stopped")

    thread = threading.Thread(target=run.doing, args=(whole,), daemon=True)
    thread.start()
    _searching(search)
    small = everything[:5]
    assert optimal._Run().doing(search.cost, small, search.plain, 4, optimal.UNSOLVABLE) > 0
    run.stop()
    thread.join(120)  # (a bound far past the moment it takes, not a measure of speed)
    assert not thread.is_alive() and raised == ["stopped"]
    assert search.memo.keys() == {(small.tobytes(), 0)}  # nothing half worked out is kept


def test_ctrl_c_during_a_search_gives_its_run_up_and_the_next_run_answers():
    """Ctrl-C reaches the main thread, which waits while a thread searches: it gives the
    run up, so the kernel call under way ends, and raises KeyboardInterrupt at once. Twice
    over, and the search (like the one ``next_guess`` keeps) answers the next run."""
    import signal
    import threading

    variant = mm.Variant(4, 7)
    search = optimal._Search(variant, None)
    everything = np.arange(variant.size, dtype=np.int32)

    def whole() -> int:
        return search.cost(everything, search.plain, variant.size, optimal.UNSOLVABLE)

    for _ in range(2):
        search.nodes = 0

        def press_ctrl_c() -> None:
            _searching(search)
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

        threading.Thread(target=press_ctrl_c, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            optimal._interruptible(whole)
        _given_up_threads_end()
        assert search.running == {}  # (its kernel call returned)
    small = everything[:5]
    assert optimal._interruptible(lambda: search.cost(small, search.plain, 4, 10**6)) > 0


def _given_up_threads_end() -> None:
    """Waits for the threads of runs given up, which end by themselves."""
    import threading

    waiting = time.monotonic() + 120  # (a bound far past the moment it takes)
    while time.monotonic() < waiting:
        if not any(t.name == "hamle optimal search" for t in threading.enumerate()):
            return
        time.sleep(0.01)
    pytest.fail("a search given up is still running")


def test_a_run_within_a_run_hands_the_thread_back_to_the_outer_one():
    outer, inner = optimal._Run(), optimal._Run()
    seen = outer.doing(lambda: (inner.doing(optimal._run_here), optimal._run_here()))
    assert seen == (inner, outer)


def test_the_work_s_own_error_is_raised_in_the_caller():
    def fails() -> None:
        raise mm.MastermindError("no strategy")

    with pytest.raises(mm.MastermindError, match="no strategy"):
        optimal._interruptible(fails)


def test_a_tree_that_cannot_take_its_name_in_the_cache_leaves_no_file_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    monkeypatch.setattr(optimal, "_REFUSED", {})
    variant = mm.Variant(2, 2)
    optimal.tree_path(variant, None).mkdir()  # (a folder where the file goes: no rename)
    tree = optimal.cached_tree(variant)
    assert verify(tree).total == tree["total"]
    assert [p.name for p in tmp_path.iterdir()] == [optimal.tree_path(variant, None).name]
