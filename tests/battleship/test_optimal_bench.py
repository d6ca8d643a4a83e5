"""``bench/battleship_optimal.py``: its optimum is brute force's, and no shooter beats it."""

from functools import cache

import pytest
from battleship.reference import fleets, layouts
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import hamle.battleship as bs


@pytest.fixture(scope="module")
def bench(load_bench):
    return load_bench("battleship_optimal")


def brute_force_total(rules: bs.Rules) -> int:
    """The least total shots over every labelled fleet, trying every unshot cell at every
    state (the fleets that fit the answers, and the cells shot), with none of the search's
    shortcuts; ships of equal length are labelled, which scales the total by Π m!."""
    every = fleets(rules)

    def answer(fleet, shot: frozenset, cell: int):
        for ship in fleet:
            if cell in ship:
                done = shot | {cell}
                if not set(ship) <= done:
                    return "hit"
                return ("sunk", ship, all(set(s) <= done for s in fleet))
        return "miss"

    @cache
    def total(fitting: frozenset, shot: frozenset) -> int:
        best = None
        for cell in range(rules.cells):
            if cell in shot:
                continue
            groups: dict = {}
            for i in fitting:
                groups.setdefault(answer(every[i], shot, cell), set()).add(i)
            shots = len(fitting)
            for reply, group in groups.items():
                if reply[0] != "sunk" or not reply[2]:  # the game goes on
                    shots += total(frozenset(group), shot | {cell})
            best = shots if best is None else min(best, shots)
        return best

    return total(frozenset(range(len(every))), frozenset())


BOARDS = ["2x3:2", "3x3:2", "2x4:1,2", "3x3:1,1/apart", "3x3:1,2/apart", "2x4:1,1,2", "2x3:1,1"]


@pytest.mark.parametrize("board", BOARDS)
def test_the_optimum_is_brute_force_s(bench, board):
    rules = bench.parse_board(board)
    total, n, _ = bench.optimal_total(rules)
    labelled = len(fleets(rules))
    assert n == layouts(rules, fleets(rules))
    assert total * labelled == brute_force_total(rules) * n


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(2, 3),
    st.lists(st.integers(1, 2), min_size=1, max_size=2),
    st.booleans(),
)
def test_the_optimum_matches_brute_force_on_drawn_boards(load_bench, rows, cols, lengths, touching):
    bench = load_bench("battleship_optimal")
    try:
        rules = bs.Rules.custom((rows, cols), lengths, touching=touching)
    except bs.RulesError:  # the fleet does not fit
        assume(False)
    assume(fleets(rules))
    total, n, _ = bench.optimal_total(rules)
    assert total * len(fleets(rules)) == brute_force_total(rules) * n


def test_greedy_play_is_not_optimal_and_no_shooter_beats_the_optimum(bench):
    rules = bench.parse_board("3x4:2,2")
    optimum, n, _ = bench.optimal_total(rules)
    assert (optimum, n) == (745, 102)
    density = bench.shooter_total(rules, bs.get_shooter("density"), 1)
    assert density > optimum
    for seed in (1, 2, 3):
        assert bench.shooter_total(rules, bs.get_shooter("exact"), seed) >= optimum


def greedy_total(rules: bs.Rules) -> int:
    """Each labelled fleet played by the greedy shooter: the unshot cell held by most of the
    fleets that fit every answer so far (the lowest index on a tie), answers as ``Ocean``
    gives them; the shots over all fleets."""
    every = fleets(rules)
    total = 0
    for fleet in every:
        ocean = bs.Ocean(bs.Fleet(rules, fleet))
        fitting = list(every)
        while not ocean.over:
            shot = ocean.observation.marks != 0
            held = [sum(c in sum(f, ()) for f in fitting) for c in range(rules.cells)]
            cell = max((c for c in range(rules.cells) if not shot[c]), key=lambda c: (held[c], -c))
            answer = ocean.fire(cell)
            total += 1
            board = ocean.observation.marks

            def fits(f, cell=cell, answer=answer, board=board):
                ship = next((s for s in f if cell in s), None)
                if answer.answer == "miss":
                    return ship is None
                if ship is None:
                    return False
                hit = {c for c in range(rules.cells) if board[c] in (2, 3)}
                sunk = set(ship) <= hit
                return sunk == (answer.answer == "sunk") and (
                    not sunk or set(ship) == set(answer.ship_cells)
                )

            fitting = [f for f in fitting if fits(f)]
    return total


@pytest.mark.parametrize("board", ["3x3:2", "2x4:1,2", "3x4:2,2", "3x3:1,2/apart"])
def test_the_greedy_round_plays_as_a_plain_greedy_shooter(bench, board):
    rules = bench.parse_board(board)
    greedy = bench.Rounds(rules).totals(0)[0]
    assert greedy * len(fleets(rules)) == greedy_total(rules) * len(bench.layouts(rules))


@pytest.mark.parametrize("board", ["3x4:2,2", "3x4:1,2/apart", "2x5:2,2"])
def test_each_round_of_improvement_is_no_worse_and_none_beats_the_optimum(bench, board):
    rules = bench.parse_board(board)
    optimum = bench.optimal_total(rules)[0]
    rounds = bench.Rounds(rules)
    totals = rounds.totals(3)
    assert totals == sorted(totals, reverse=True)
    assert totals[-1] >= optimum
    assert totals[0] > optimum  # greedy play is not optimal on these boards
    for k in range(3):  # the performance difference lemma, exactly
        gains = rounds.gains(k)
        assert gains["hunt"] + gains["target"] == totals[k] - totals[k + 1]
        assert min(gains.values()) >= 0
        assert rounds.gains(k, along=k + 1) == gains
        assert min(rounds.gains(k, along=k).values()) >= 0  # each cell saves its round


def test_along_the_greedy_games_the_one_step_savings_add_up_to_more_than_the_gain(bench):
    rounds = bench.Rounds(bench.parse_board("4x4:2,2,3"))
    greedy, round_1 = rounds.totals(1)
    assert sum(rounds.gains(0).values()) == greedy - round_1 == 166
    assert sum(rounds.gains(0, along=0).values()) == 425  # 2.6 times the gain


def test_layouts_tell_equal_ships_apart_once(bench):
    rules = bs.Rules.custom((4, 4), [2, 2, 1], touching=False)
    assert len(bench.layouts(rules)) == bs.count_fleets(rules).layouts


def test_the_search_stops_at_its_state_limit(bench):
    with pytest.raises(bench.TooManyStates, match="more than 100 states"):
        bench.optimal_total(bench.parse_board("4x4:2,3"), state_limit=100)


@pytest.mark.parametrize("text", ["4x4", "4x4:2/touching", "4:2", "axb:2"])
def test_a_malformed_board_is_refused(bench, text):
    with pytest.raises(ValueError):
        bench.parse_board(text)
