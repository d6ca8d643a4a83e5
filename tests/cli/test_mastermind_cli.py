"""``hamle mastermind``: score, evaluate, solve and play, driven through standard input."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from mastermind.trees import one_peg_tree
from typer.testing import CliRunner

import hamle.mastermind as mm
from hamle.cli import app

runner = CliRunner()
CLASSIC = mm.Variant.classic()


def run(*args: str, script: str | None = None):
    return runner.invoke(app, ["mastermind", *args], script)


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def plain_score(secret: str, guess: str) -> tuple[int, int]:
    """Black and white of two codes written as digits, counted by hand."""
    black = sum(s == g for s, g in zip(secret, guess, strict=True))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def solver_game(secret: str, name: str = "minimax", variant: mm.Variant = CLASSIC):
    """The guesses the solver makes for ``secret`` and the answers they get."""
    strategy = mm.get_strategy(name)
    history = mm.History(variant)
    steps = []
    while not history.solved:
        guess = variant.format(strategy.next_guess(history))
        answer = plain_score(secret, guess)
        steps.append((guess, answer))
        history = history.then(variant.parse(guess), variant.answer(*answer))
    return steps


def prompts(output: str) -> list[tuple[int, str]]:
    return [(int(n), code) for n, code in re.findall(r"guess (\d+): (\d+)  answer>", output)]


# --- score and evaluate ------------------------------------------------------------------


def test_score_json_and_text():
    assert run_json("score", "1123", "3211") == {
        "secret": "1123",
        "guess": "3211",
        "black": 0,
        "white": 4,
    }
    result = run("score", "1234", "1243")
    assert result.exit_code == 0 and result.stdout.strip() == "2 black, 2 white"
    data = run_json("score", "0123", "3210", "--variant", "bulls-and-cows")
    assert (data["black"], data["white"]) == (0, 4)
    data = run_json("score", "11111", "12345", "--pegs", "5", "--colours", "5")
    assert (data["black"], data["white"]) == (1, 0)


def test_codes_written_with_tabs_or_line_ends_are_read_as_with_spaces():
    assert run_json("score", "1\t1\t2\t3", "3 2\n1,1") == {
        "secret": "1123",
        "guess": "3211",
        "black": 0,
        "white": 4,
    }
    played = run("play", "--game", "3", script="1\t1\t2\t2\nq\n")
    assert played.exit_code == 0 and "guess 1>   2 black 0 white" in played.stdout


def test_evaluate_minimax_json_is_knuths_figure():
    data = run_json("evaluate", "--strategy", "minimax")
    assert data["total"] == 5801 and data["max"] == 5 and data["first_guess"] == "1122"
    assert data["codes"] == 1296 and sum(data["histogram"].values()) == 1296
    assert data["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert data["average"] == pytest.approx(5801 / 1296)


def test_evaluate_text_output():
    result = run("evaluate", "--strategy", "most-parts")
    assert result.exit_code == 0, result.output
    assert "first guess 1123; total 5668" in result.stdout
    assert "guesses" in result.stdout and "secrets" in result.stdout


def test_evaluate_bulls_and_cows_first_consistent():
    data = run_json("evaluate", "--variant", "bulls-and-cows", "--strategy", "first-consistent")
    variant = mm.Variant.named("bulls-and-cows")
    assert data["codes"] == 5040 and data["first_guess"] == "0123"
    assert data["variant"] == {"pegs": 4, "colours": 10, "repeat": False}
    assert sum(data["histogram"].values()) == 5040 and data["histogram"]["1"] == 1
    expected = mm.evaluate("first-consistent", variant).as_dict()
    assert data["total"] == expected["total"] and data["histogram"] == expected["histogram"]


def test_evaluate_custom_variant_with_jobs():
    data = run_json(
        "evaluate", "--strategy", "entropy", "--pegs", "3", "--colours", "5", "--no-repeat"
    )
    again = run_json(
        "evaluate",
        *("--strategy", "entropy", "--pegs", "3", "--colours", "5", "--no-repeat"),
        *("--jobs", "2"),
    )
    assert data["codes"] == 60 and data["histogram"] == again["histogram"]
    assert data["histogram"] == {"1": 1, "2": 5, "3": 31, "4": 23}  # the twin's evaluation


def test_random_consistent_takes_a_seed_and_every_output_names_it(tmp_path):
    default = run_json("evaluate", "--strategy", "random-consistent")
    assert (default["strategy"], default["seed"], default["total"]) == (
        "random-consistent",
        0,
        6151,
    )
    seeded = run_json("evaluate", "--strategy", "random-consistent", "--seed", "1")
    assert (seeded["seed"], seeded["total"]) == (1, 5992)
    said = run("evaluate", "--strategy", "random-consistent", "--seed", "2").stdout
    assert said.startswith("random-consistent (seed 2) on 4 pegs") and "total 6039" in said
    assert run_json("evaluate", "--strategy", "minimax", "--pegs", "3")["seed"] is None
    out = tmp_path / "tree.json"
    written = run("tree", "--strategy", "random-consistent", "--seed", "1", "--out", str(out))
    assert written.stdout.startswith("random-consistent (seed 1) on 4 pegs")
    assert "total 5992" in written.stdout and json.loads(out.read_text())["seed"] == 1
    assert run_json("verify", str(out))["seed"] == 1
    assert run("verify", str(out)).stdout.startswith("random-consistent (seed 1) on 4 pegs")
    solving = run("solve", "--strategy", "random-consistent", "--seed", "3", script="q\n")
    assert "strategy random-consistent (seed 3)." in solving.stdout
    script = "?\nq\n"
    played = run(
        "play", "--strategy", "random-consistent", "--seed", "3", "--game", "2", script=script
    )
    assert "random-consistent (seed 3) suggests" in played.stdout


@pytest.mark.parametrize("command", ["evaluate", "solve", "play", "tree"])
def test_a_seed_for_a_strategy_that_draws_nothing_at_random_is_refused(command, tmp_path):
    out = ("--out", str(tmp_path / "tree.json")) if command == "tree" else ()
    result = run(command, "--strategy", "minimax", "--seed", "1", *out, script="q\n")
    assert result.exit_code == 2
    assert "--seed applies to random-consistent only" in result.output
    assert not (tmp_path / "tree.json").exists()


# --- solve -------------------------------------------------------------------------------


@pytest.mark.parametrize("secret", ["5122", "3632", "1122", "6665"])
def test_solve_through_standard_input(secret):
    steps = solver_game(secret)
    script = "".join(f"{b} {w}\n" for _, (b, w) in steps)
    result = run("solve", script=script)
    assert result.exit_code == 0, result.output
    assert prompts(result.stdout) == [(i, g) for i, (g, _) in enumerate(steps, 1)]
    n = len(steps)
    assert f"solved in {n} guess{'es' if n != 1 else ''}: {secret}" in result.stdout
    assert steps[-1][0] == secret and steps[0][0] == "1122"


def test_solve_lists_the_candidates_when_few():
    steps = solver_game("5122")
    script = "".join(f"{b} {w}\n" for _, (b, w) in steps[:-1]) + "q\n"
    result = run("solve", script=script)
    assert result.exit_code == 0
    assert "1 candidate left: 5122" in result.stdout
    assert "stopped" in result.stdout


def test_solve_bulls_and_cows_with_another_strategy():
    variant = mm.Variant.named("bulls-and-cows")
    steps = solver_game("9170", "expected-size", variant)
    script = "".join(f"{b},{w}\n" for _, (b, w) in steps)
    result = run(
        "solve", "--variant", "bulls-and-cows", "--strategy", "expected-size", script=script
    )
    assert result.exit_code == 0, result.output
    assert f"solved in {len(steps)} guesses: 9170" in result.stdout


def test_solve_explains_an_inconsistent_answer_and_continues():
    secret = "5122"
    steps = solver_game(secret)
    first, second = steps[0][0], steps[1][0]
    history = mm.History(CLASSIC).then(CLASSIC.parse(first), CLASSIC.answer(*steps[0][1]))
    wrong = None
    for b in range(5):
        for w in range(5 - b):
            if (b, w) == (3, 1):
                continue
            trial = history.then(CLASSIC.parse(second), CLASSIC.answer(b, w))
            try:
                trial.candidates()
            except mm.InconsistentError:
                wrong = (b, w)
                break
        if wrong:
            break
    assert wrong is not None
    lines = [f"{b} {w}" for _, (b, w) in steps]
    lines.insert(1, f"{wrong[0]} {wrong[1]}")
    result = run("solve", script="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    said = " ".join(out.split())  # piped output is wrapped at 120 columns
    assert "inconsistent: no secret gives all these answers" in said
    assert f"#2 ({second} → {wrong[0]} black {wrong[1]} white)" in said
    assert "cannot all be right" in said
    assert "most likely answer #2 should be" in said  # the likely typo is proposed
    shown = prompts(out)
    assert shown[1] == shown[2] == (2, second)  # the same guess is asked again
    assert f"solved in {len(steps)} guesses: {secret}" in out


def test_solve_rejects_a_bad_answer_and_continues():
    steps = solver_game("3632")
    script = "3 1\nx y\n" + "".join(f"{b} {w}\n" for _, (b, w) in steps)
    result = run("solve", script=script)
    assert result.exit_code == 0, result.output
    assert "cannot happen" in result.stdout and "is not an answer" in result.stdout
    assert prompts(result.stdout)[:3] == [(1, "1122")] * 3
    assert f"solved in {len(steps)} guesses" in result.stdout


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_line_too_long_is_let_go_and_the_game_goes_on(end):
    steps = solver_game("3632")
    pasted = "2 1 " * 5_000 + end  # (20,000 characters)
    script = pasted + "".join(f"{b} {w}\n" for _, (b, w) in steps)
    result = run("solve", script=script)
    assert result.exit_code == 0, result.output
    assert "longer than 10,000 characters is not read; the game goes on" in result.stdout
    assert prompts(result.stdout)[:2] == [(1, "1122")] * 2
    assert f"solved in {len(steps)} guesses: 3632" in result.stdout
    played = run("play", "--game", "3", script="1" * 10_001 + end + "1122\nq\n")
    assert played.exit_code == 0, played.output
    assert "is not read; the game goes on" in played.stdout
    assert played.stdout.count("guess 1>") == 2 and "guess 1>   2 black 0 white" in played.stdout


def test_input_without_line_ends_still_ends_the_game(monkeypatch):
    from hamle.cli import common

    monkeypatch.setattr(common, "LONGEST_SKIPPED", 50_000)
    result = run("play", "--game", "3", script="1" * 100_000)
    assert result.exit_code == 2
    assert "a line of input is longer than 50,000 characters" in result.output


def test_solve_undo():
    steps = solver_game("3632")
    (b, w) = steps[0][1]
    wrong = (0, 0) if (b, w) != (0, 0) else (1, 0)
    script = f"{wrong[0]} {wrong[1]}\nundo\n" + "".join(f"{x} {y}\n" for _, (x, y) in steps)
    result = run("solve", script=script)
    assert result.exit_code == 0, result.output
    shown = prompts(result.stdout)
    assert shown[0] == (1, "1122") and shown[1][0] == 2 and shown[2] == (1, "1122")
    assert "1296 candidates left" in result.stdout  # after undo, everything again
    assert f"solved in {len(steps)} guesses: 3632" in result.stdout


def test_solve_fix_corrects_an_earlier_answer():
    steps = solver_game("3632")
    (b, w) = steps[0][1]
    wrong = (0, 0) if (b, w) != (0, 0) else (1, 0)
    script = f"{wrong[0]} {wrong[1]}\nfix 1 {b} {w}\n" + "".join(
        f"{x} {y}\n" for _, (x, y) in steps[1:]
    )
    result = run("solve", script=script)
    assert result.exit_code == 0, result.output
    shown = prompts(result.stdout)
    assert shown[0] == (1, "1122") and shown[2] == (2, steps[1][0])
    assert f"solved in {len(steps)} guesses: 3632" in result.stdout


@pytest.mark.parametrize(
    ("line", "message"),
    [("undo", "nothing to undo"), ("fix 3 1 0", "no answer #3"), ("fix x", "write fix N B W")],
)
def test_solve_bad_commands_are_explained(line, message):
    result = run("solve", script=f"{line}\nq\n")
    assert result.exit_code == 0, result.output
    assert message in result.stdout and "Traceback" not in result.output


# --- play --------------------------------------------------------------------------------


def test_play_help_and_a_guess():
    result = run("play", "--game", "3", script="?\n1122\n?\n12\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "game 3:" in out and "1296 candidates left" in out
    assert "minimax suggests 1122" in out
    secret = re.search(r"the secret was (\d{4})", out).group(1)
    b, w = plain_score(secret, "1122")
    assert f"{b} black {w} white" in out
    history = mm.History(CLASSIC).then(CLASSIC.parse("1122"), CLASSIC.answer(b, w))
    assert f"{len(history.candidates())} candidate" in out
    suggestion = CLASSIC.format(mm.get_strategy("minimax").next_guess(history))
    assert re.findall(r"minimax suggests (\d{4})", out) == ["1122", suggestion]
    assert "'12' is not a code" in out
    # The same game number hides the same secret: guessing it wins at once.
    again = run("play", "--game", "3", script=f"{secret}\n")
    assert again.exit_code == 0, again.output
    assert "4 black 0 white" in again.stdout and "solved in 1 guess!" in again.stdout


def test_a_blank_line_asks_again_rather_than_ending_the_game():
    played = run("play", "--game", "5", script="1122\n   \n\n1234\nq\n").stdout
    assert "guess 3> " in played and played.count("guess 2> ") == 3  # (asked again twice)
    steps = solver_game("5122")
    answers = [f"{b} {w}\n" for _, (b, w) in steps]
    solved = run("solve", script=answers[0] + "\n" + "".join(answers[1:])).stdout
    assert "solved in" in solved and "stopped" not in solved


def test_play_says_its_keys_first_and_on_help_without_counting_a_guess():
    result = run("play", "--game", "3", "--variant", "bulls-and-cows", script="help\n H \n")
    assert result.exit_code == 0, result.output
    keys = "type a guess of 4 digits; ? lists the codes left and a suggestion; q quits"
    assert result.stdout.startswith(
        f"game 3: 4 pegs, 10 colours (0-9), no repetition: 5040 codes. Guess the secret: {keys}.\n"
    )
    assert result.stdout.count(keys) == 3 and "is not a code" not in result.stdout
    assert "\nthe secret was " in result.stdout  # (no guess made)


def test_play_refuses_a_guess_made_already_without_counting_it():
    result = run("play", "--game", "42", script="1122\n1 1 2 2\n1,1,2,2\nexit\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("1122 is guess 1 already") == 2
    assert "guess 2> " in result.stdout and "guess 3>" not in result.stdout
    assert "; replay with --game 42 --pegs 4 --colours 6\n" in result.stdout
    cows = run("play", "--game", "5", "--variant", "bulls-and-cows", script="q\n").stdout
    assert cows.endswith("; replay with --game 5 --pegs 4 --colours 10 --no-repeat\n")
    secret = re.search(r"the secret was (\d{4})", cows)[1]
    again = run(
        "play", "--game", "5", "--pegs", "4", "--colours", "10", "--no-repeat", script="q\n"
    )
    assert f"the secret was {secret};" in again.stdout


def test_play_ends_after_thirty_guesses_as_on_the_site():
    secret = re.search(r"the secret was (\d{4})", run("play", "--game", "8", script="q\n").stdout)[
        1
    ]
    wrong = [c for c in (CLASSIC.format(i) for i in range(CLASSIC.size)) if c != secret][:31]
    result = run("play", "--game", "8", script="\n".join(wrong) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count(" black ") == 30  # the 31st is never scored
    assert result.stdout.endswith(
        f"out of guesses (30): the secret was {secret}; replay with --game 8 --pegs 4 --colours 6\n"
    )


@pytest.mark.parametrize("cut_short", ["search", "count"])
def test_ctrl_c_during_a_suggestion_gives_the_game_back(monkeypatch, cut_short):
    import hamle.cli.mastermind as cli

    def interrupted(*args):
        raise KeyboardInterrupt

    if cut_short == "search":
        monkeypatch.setattr(cli, "_next_guess", interrupted)
    else:  # the count of the codes left, before the search
        monkeypatch.setattr(mm.History, "candidates", interrupted)
    result = run("play", "--game", "3", script="?\n1122\nq\n")
    assert result.exit_code == 0, result.output
    assert "no suggestion: stopped; the game goes on" in result.stdout
    assert " black " in result.stdout and "the secret was" in result.stdout


def test_play_a_whole_game_with_the_suggestions():
    result = run("play", "--game", "11", script="q\n")
    secret = re.search(r"the secret was (\d{4})", result.stdout).group(1)
    guesses = [g for g, _ in solver_game(secret)]
    result = run("play", "--game", "11", script="".join(f"{g}\n" for g in guesses))
    assert result.exit_code == 0, result.output
    n = len(guesses)
    assert f"solved in {n} guess{'es' if n != 1 else ''}!" in result.stdout


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "1123", "3211", "--variant", "dutch"], "unknown variant 'dutch'"),
        (["score", "1127", "1123"], "colour 7 at position 4"),
        (["score", "112", "1123"], "is not a code"),
        (["score", "0123", "0124", "--variant", "bulls-and-cows", "--pegs", "5"], "is not a code"),
        (["score", "1123", "1234", "--variant", "bulls-and-cows"], "repeats 1, which"),
        (["evaluate", "--strategy", "knuth"], "unknown strategy 'knuth'"),
        (["evaluate", "--variant", "6x9"], "would take hours"),
        (["evaluate", "--pegs", "0"], "pegs must be 1 to 8"),
        (["solve", "--pegs", "0"], "pegs must be 1 to 8"),
        (["solve", "--colours", "11"], "colours must be 2 to 10"),
        (["solve", "--strategy", "psychic"], "unknown strategy 'psychic'"),
        (["play", "--variant", "nope"], "unknown variant 'nope'"),
        (["play", "--pegs", "8", "--colours", "7"], "at most 2,097,152"),
        (["solve", "--pegs", "7", "--colours", "6", "--no-repeat"], "need at least 7 colours"),
    ],
)
def test_bad_input_gets_one_clear_line(args, message):
    result = run(*args, script="q\n")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", "--jobs", "0"],
        ["play", "--game", "0"],
        ["score", "1123"],
        ["evaluate", "--pegs", "four"],
    ],
)
def test_out_of_range_options_are_usage_errors(args):
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_non_ascii_digit_in_a_code_is_one_error_line():
    result = run("score", "112²", "1123")
    assert result.exit_code == 2
    assert result.stderr.startswith("error:") and "Traceback" not in result.output


def test_non_ascii_digit_in_an_answer_is_explained_and_solve_continues():
    result = run("solve", script="²1\n4 0\n")
    assert result.exit_code == 0
    assert "solved in 1 guess: 1122" in result.stdout


def test_fix_to_all_black_names_the_solved_code():
    result = run("solve", script="1 0\nfix 1 4 0\n")
    assert result.exit_code == 0, result.output
    assert "solved in 1 guess: 1122" in result.stdout


def test_fixing_an_earlier_answer_to_all_black_ends_the_game_at_that_guess():
    steps = solver_game("3632")
    second = steps[1][0]  # answered wrongly, as if it were not the secret
    script = "".join(f"{b} {w}\n" for _, (b, w) in steps[:2]) + "fix 2 4 0\n"
    result = run("solve", script=script)
    assert result.exit_code == 0, result.output
    assert f"solved in 2 guesses: {second}" in result.stdout
    assert prompts(result.stdout)[-1][0] == 3  # no guess after the fix


# --- optimal, trees and their check ------------------------------------------------------


def test_optimal_tree_is_written_and_verified(tmp_path):
    out = tmp_path / "tree.json"
    result = run(
        "tree", "--strategy", "optimal", "--pegs", "3", "--colours", "4", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert "total 206, worst 4" in result.stdout
    data = run_json("verify", str(out))
    assert (data["total"], data["max"], data["codes"]) == (206, 4, 64)
    assert data.keys() == mm.evaluate("minimax", mm.Variant(3, 4)).as_dict().keys()
    assert data["histogram"] == {"1": 1, "2": 7, "3": 33, "4": 23}
    evaluation = run_json("evaluate", "--strategy", "optimal", "--pegs", "3", "--colours", "4")
    assert evaluation["total"] == 206


def test_any_strategy_has_a_tree_that_checks_out_as_its_evaluation(tmp_path):
    out = tmp_path / "minimax.json"
    variant = ("--pegs", "4", "--colours", "5", "--no-repeat")
    assert run("tree", "--strategy", "minimax", *variant, "--out", str(out)).exit_code == 0
    checked = run_json("verify", str(out))
    evaluated = run_json("evaluate", "--strategy", "minimax", *variant)
    assert checked["total"] == evaluated["total"] and checked["histogram"] == evaluated["histogram"]
    written = json.loads(out.read_text())["variant"]
    assert checked["variant"] == evaluated["variant"] == written
    assert written == {"pegs": 4, "colours": 5, "repeat": False}


def test_a_capped_optimum():
    # On 4×4 the first optimal tree found needs 5 guesses for some secret; another of the
    # same total never needs more than 4.
    variant = ("--strategy", "optimal", "--pegs", "4", "--colours", "4")
    free = run_json("evaluate", *variant)
    capped = run_json("evaluate", *variant, "--max-guesses", "4")
    assert (free["total"], free["max"], free["max_guesses"]) == (905, 5, None)
    assert (capped["total"], capped["max"], capped["max_guesses"]) == (905, 4, 4)
    said = run("evaluate", *variant, "--max-guesses", "4").stdout
    assert said.startswith("optimal (at most 4 guesses a secret) on 4 pegs, 4 colours")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["evaluate", "--strategy", "minimax", "--max-guesses", "4"], "applies to the optimal"),
        (
            [
                "evaluate",
                "--strategy",
                "optimal",
                "--pegs",
                "3",
                "--colours",
                "3",
                "--max-guesses",
                "2",
            ],
            "within 2 guesses; allow more",
        ),
        (["verify", "/no/such/tree.json"], "cannot read /no/such/tree.json"),
        (["verify", "\x00"], "an argument holds a NUL byte"),
    ],
)
def test_optimal_and_tree_errors_are_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_a_damaged_tree_is_rejected_naming_the_node(tmp_path):
    out = tmp_path / "tree.json"
    run("tree", "--strategy", "optimal", "--pegs", "2", "--colours", "3", "--out", str(out))
    data = json.loads(out.read_text())
    key = sorted(data["root"]["answers"])[-1]
    del data["root"]["answers"][key]
    out.write_text(json.dumps(data))
    result = run("verify", str(out))
    assert result.exit_code == 2
    assert f"has no child for answer '{key}'" in result.output
    out.write_text("[1, 2")
    assert "is not JSON" in run("verify", str(out)).output
    out.write_text("[" * 200_000)
    result = run("verify", str(out))
    assert result.exit_code == 2 and "is nested too deeply to be a tree file" in result.output


def test_solve_refuses_a_strategy_too_slow_for_the_variant_before_guessing():
    result = run("solve", "--variant", "6x9", script="q\n")
    assert result.exit_code == 2 and result.stdout == ""
    assert "minimax on 531,441 codes would take hours" in result.stderr
    consistent = run("solve", "--variant", "6x9", "--strategy", "first-consistent", script="q\n")
    assert consistent.exit_code == 0 and "guess 1: 111111" in consistent.stdout


def test_play_says_why_it_has_no_suggestion_and_goes_on():
    result = run("play", "--variant", "6x9", "--game", "3", script="?\n111111\nq\n")
    assert result.exit_code == 0, result.output
    assert "no suggestion: minimax on 531,441 codes would take hours" in result.stdout
    assert "black" in result.stdout and "the secret was" in result.stdout


def test_a_tree_is_not_built_for_an_out_that_is_a_folder(tmp_path, monkeypatch):
    import hamle.mastermind.tree

    def refuse(*args, **kwargs):
        raise AssertionError("the tree was built")

    monkeypatch.setattr(hamle.mastermind.tree, "strategy_tree", refuse)
    (tmp_path / "tree.json").mkdir()
    result = run("tree", "--strategy", "minimax", "--out", str(tmp_path / "tree.json"))
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: --out: {tmp_path / 'tree.json'} is a folder, not a file\n"


# --- the sweep's findings ----------------------------------------------------------------


@pytest.fixture
def fresh_trees(tmp_path, monkeypatch):
    """A cache directory and a process that hold no solved tree yet."""
    from hamle.mastermind import optimal

    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(optimal, "_TREES", {})
    monkeypatch.setattr(optimal, "_READ", {})
    return optimal


def test_tree_refuses_a_strategy_beyond_its_limit_at_once(tmp_path, monkeypatch):
    from hamle.mastermind.strategies import Partition

    monkeypatch.setattr(Partition, "largest", 100)  # as 6x9 is for minimax
    out = tmp_path / "tree.json"
    result = run(
        "tree", "--strategy", "minimax", "--pegs", "3", "--colours", "5", "--out", str(out)
    )
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr == (
        "error: minimax on 125 codes would take hours; it is supported up to 100 codes\n"
    )


def test_solve_and_play_show_the_optimal_search(fresh_trees, monkeypatch):
    from contextlib import contextmanager

    import hamle.cli.mastermind as cli

    real = fresh_trees.solve

    def reporting_solve(*args, **kwargs):  # as a search of more than a second reports
        progress = args[2] if len(args) > 2 else kwargs.get("progress")
        if progress is not None:
            progress(0, 1, None)
        return real(*args, **kwargs)

    monkeypatch.setattr(fresh_trees, "solve", reporting_solve)
    shown = []

    @contextmanager
    def status():
        yield lambda *report: shown.append(report)

    monkeypatch.setattr(cli, "search_status", status)
    variant = ("--pegs", "3", "--colours", "4")
    result = run("solve", "--strategy", "optimal", *variant, script="q\n")
    assert result.exit_code == 0 and shown and "guess 1: 112" in result.stdout
    monkeypatch.setattr(fresh_trees, "_TREES", {})
    monkeypatch.setenv("HAMLE_CACHE_DIR", str(fresh_trees.cache_dir() / "again"))
    shown.clear()
    result = run("play", "--strategy", "optimal", *variant, "--game", "3", script="?\nq\n")
    assert result.exit_code == 0 and shown and "optimal suggests 112" in result.stdout


def test_optimal_without_a_cache_directory_says_its_tree_is_not_kept(tmp_path):
    """HOME empty and XDG_CACHE_HOME relative count as unset; the user has no home in the
    password database either, so the tree is solved and kept nowhere (an empty HOME put
    it in /.cache)."""
    program = (
        "import pwd, sys\n"
        "def no_entry(uid):\n"
        "    raise KeyError(uid)\n"
        "pwd.getpwuid = no_entry\n"
        "from hamle.start import main\n"
        "main()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "HAMLE_CACHE_DIR"}
    env |= {"HOME": "", "XDG_CACHE_HOME": "cache"}
    env["PYTHONPATH"] = str(pathlib.Path(mm.__file__).parents[2])  # (the hamle tested here)
    args = ["mastermind", "evaluate", "--strategy", "optimal", "--pegs", "2", "--colours", "3"]
    done = subprocess.run(
        [sys.executable, "-c", program, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(
        "solved trees are not kept for later runs: no cache directory"
    )
    assert "optimal" in done.stdout and list(tmp_path.iterdir()) == []


def test_evaluate_counts_the_optimal_search_in_its_seconds(fresh_trees, monkeypatch):
    import time

    real = fresh_trees.solve

    def slow_solve(*args, **kwargs):
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(fresh_trees, "solve", slow_solve)
    data = run_json("evaluate", "--strategy", "optimal", "--pegs", "3", "--colours", "3")
    assert data["total"] == 73 and data["seconds"] >= data["tree_seconds"] >= 0.3
    assert data["tree_file"] is None  # (solved, not read)
    result = run("evaluate", "--strategy", "optimal", "--pegs", "3", "--colours", "3")
    assert result.exit_code == 0 and " s of it to solve the tree)" in result.stdout
    assert "tree_seconds" not in run_json("evaluate", "--pegs", "3", "--colours", "3")


def test_evaluate_says_which_cache_file_its_optimal_tree_was_read_from(fresh_trees, tmp_path):
    """A tree read from the cache is trusted once it checks out; the output said nothing of
    where it came from, as if it had been solved."""
    args = ("evaluate", "--strategy", "optimal", "--pegs", "3", "--colours", "3")
    assert run_json(*args)["tree_file"] is None  # (solved and kept)
    fresh_trees._TREES.clear()  # (as a later run, which finds the file)
    kept = tmp_path / "cache" / "mastermind-optimal-3x3.json"
    data = run_json(*args)
    assert data["tree_file"] == str(kept) and data["total"] == 73
    fresh_trees._TREES.clear()
    said = run(*args).stdout.replace("\n", "")
    assert f"to read the tree kept in {kept})" in said


def test_tree_checks_out_before_the_search(fresh_trees, monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr(fresh_trees, "solve", refuse)
    out = "/no/such/folder/tree.json"
    result = run("tree", "--strategy", "optimal", "--pegs", "3", "--colours", "3", "--out", out)
    assert result.exit_code == 2
    assert result.stderr == "error: --out: the folder /no/such/folder does not exist\n"
    (file := tmp_path / "a.json").write_text("")  # a file where a folder is named
    result = run("tree", "--pegs", "3", "--colours", "3", "--out", f"{file}/t.json")
    assert result.stderr == f"error: --out: {file} is not a folder\n"


def test_tree_out_that_cannot_be_written_is_one_error_line():
    result = run("tree", "--pegs", "2", "--colours", "3", "--out", "/proc/version.json")
    assert result.exit_code == 2 and "Invalid value" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out:"), result.stderr


def test_tree_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    import pathlib

    out = tmp_path / "tree.json"
    variant = ("--pegs", "2", "--colours", "3")
    assert run("tree", *variant, "--out", str(out)).exit_code == 0
    written = out.read_text()
    assert json.loads(written)["variant"]["pegs"] == 2 and os_listing(tmp_path) == ["tree.json"]

    def full(self, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "replace", full)
    result = run("tree", "--strategy", "first-consistent", *variant, "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"error: --out: cannot write {out}: No space left on device\n"
    assert out.read_text() == written and os_listing(tmp_path) == ["tree.json"]


def os_listing(folder) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def test_score_json_gives_the_codes_as_read():
    data = run_json("score", " 1,1,2,3", "3 2 1 1")
    assert (data["secret"], data["guess"], data["black"], data["white"]) == ("1123", "3211", 0, 4)


def test_a_cap_above_the_worst_case_is_the_free_tree(fresh_trees, tmp_path):
    out = tmp_path / "tree.json"
    variant = ("--pegs", "3", "--colours", "3")
    result = run(
        "tree", "--strategy", "optimal", *variant, "--max-guesses", "40", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["max_guesses"] is None
    assert os_listing(fresh_trees.cache_dir()) == ["mastermind-optimal-3x3.json"]
    assert (
        run_json("evaluate", "--strategy", "optimal", *variant, "--max-guesses", "9")["total"] == 73
    )
    assert os_listing(fresh_trees.cache_dir()) == ["mastermind-optimal-3x3.json"]


# --- what was typed, or read from a file, is printed as it is ----------------------------


def one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["score", "[/x]", "1111"], "error: '[/x]' is not a code"),
        (["score", "[bold]", "1111"], "error: '[bold]' is not a code"),
        (["score", "1111", "1111", "--variant", "[/red]"], "error: unknown variant '[/red]'"),
        (["score", ":smile:", "1111"], "error: ':smile:' is not a code"),
        (["score", "\\[b]", "1111"], "error: '\\\\[b]' is not a code"),
        (["verify", "[bold]no.json"], "error: cannot read [bold]no.json"),
        (["verify", "\x1b[2Jno.json"], "error: cannot read \\x1b[2Jno.json"),
    ],
)
def test_typed_text_is_quoted_as_typed_not_read_as_markup(args, said):
    line = one_error_line(run(*args))
    assert line.startswith(said) and "\x1b" not in line


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["solve"], "'[/x]' is not an answer"),
        (["play", "--game", "1"], "'[/x]' is not a code"),
    ],
)
def test_a_session_goes_on_after_text_that_looks_like_markup(command, said):
    result = run(*command, script="[/x]\n[bold]\nq\n")
    assert result.exit_code == 0, result.output
    assert said in result.stdout and "'[bold]' is not" in result.stdout


def test_tree_says_the_file_it_wrote_as_named(tmp_path):
    out = tmp_path / "[bold]a.json"
    result = run("tree", "--pegs", "2", "--colours", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())  # (a long line is wrapped)
    assert said.endswith(f"written to {out}") and out.exists()


@pytest.mark.parametrize(
    ("strategy", "shown"),
    [
        ("[/x]", "[/x] on 1 peg"),
        ("\x1b[31mred\x1b[0m [bold]b[/bold]", "\\x1b[31mred\\x1b[0m [bold]b[/bold] on 1 peg"),
        ("x" * 100_000, "x" * 60 + "… on 1 peg"),
    ],
)
def test_verify_prints_a_files_strategy_name_as_it_is_and_short(tmp_path, strategy, shown):
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(one_peg_tree(strategy=strategy)))
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith(shown) and "\x1b" not in result.stdout and len(first) < 200
    assert run_json("verify", str(path))["strategy"] == strategy  # JSON gives it whole


def test_verify_writes_a_lone_surrogate_in_a_name_as_jsons_escape(tmp_path):
    """It has no UTF-8: printed raw, it was a traceback halfway through the output."""
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(one_peg_tree(strategy="\ud800")))  # (as \\ud800 in the file)
    hamle = [sys.executable, str(pathlib.Path(sys.executable).with_name("hamle"))]
    done = subprocess.run(
        [*hamle, "mastermind", "verify", str(path), "--json"], capture_output=True
    )
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout)["strategy"] == "\ud800"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            json.dumps(one_peg_tree(total=1)).replace('"total": 1', '"total": ' + "9" * 4300),
            "'total' is a number of 4,300 digits, but the tree's total is 3",
        ),
        ('{"total": ' + "9" * 5000 + "}", "a number of 5,000 digits is too long to read"),
        (
            json.dumps(one_peg_tree()).replace('"version": 1', '"version": 1, "version": 1'),
            "the name 'version' is given twice in one object",
        ),
        (
            json.dumps(one_peg_tree()).replace('{"guess": "2"}', '{"guess": "1", "guess": "2"}'),
            "the name 'guess' is given twice in one object",
        ),
        (json.dumps(one_peg_tree(version=True)), "tree format version true is not 1"),
        (json.dumps(one_peg_tree(version=1.0)), "tree format version 1.0 is not 1"),
        (
            json.dumps(one_peg_tree()).replace('"guess": "1"', '"guess": " 1 "'),
            "root: ' 1 ' is not a code: write its 1 digit 1-2 and nothing else",
        ),
        (
            json.dumps(one_peg_tree()).replace('"0 0"', '"00 0"'),
            "root: '00 0' is not an answer: write black and white without leading zeros",
        ),
        (
            json.dumps(one_peg_tree(strategy="[/x]")).replace('"guess": "1"', '"guess": "[/x]"'),
            "root: '[/x]' is not a code",
        ),
    ],
)
def test_a_strict_tree_file_check_is_one_error_line(tmp_path, text, said):
    path = tmp_path / "tree.json"
    path.write_text(text)
    line = one_error_line(run("verify", str(path)))
    assert said in line


def test_variant_help_lists_every_preset():
    from hamle.mastermind.codes import PRESETS

    for command in ("score", "evaluate", "tree", "solve", "play"):
        result = runner.invoke(app, ["mastermind", command, "--help"])
        assert result.exit_code == 0 and "{variants}" not in result.output
        help_text = " ".join(result.output.replace("│", " ").split())
        assert all(name in help_text for name in PRESETS), command


def test_jobs_help_says_what_jobs_does():
    def help_of(command: str) -> str:
        result = runner.invoke(app, ["mastermind", command, "--help"])
        return " ".join(result.output.replace("│", " ").split())

    evaluate = help_of("evaluate")
    assert "{vector_limit}" not in evaluate
    assert "threads for the scoring strategies (minimax to most-parts) on more than 2,048" in (
        evaluate
    )
    tree = help_of("tree")
    assert "Threads for the optimal search; the other strategies' trees are built in one" in tree


def test_a_cap_that_caps_nothing_is_not_shown_by_evaluate_as_tree_writes_none():
    uncapped = run_json("evaluate", "--strategy", "optimal", "--max-guesses", "7")
    assert uncapped["max_guesses"] is None and uncapped["total"] == 5625
    capped = run_json("evaluate", "--strategy", "optimal", "--max-guesses", "5")
    assert capped["max_guesses"] == 5 and capped["total"] == 5626
    text = run("evaluate", "--strategy", "optimal", "--max-guesses", "7").stdout
    assert text.startswith("optimal on 4 pegs") and "at most" not in text.splitlines()[0]
