"""Shooters and placers named with settings: ``expert(fleets=1000)``, ``edges(strength=6)``."""

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import hamle.battleship as bs
from hamle.battleship.named import read_named, setting_value, split_names, written_named
from hamle.cli import app

SMALL = bs.Rules.custom(6, [3, 2])

values = st.one_of(
    st.booleans(),
    st.none(),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=False, allow_infinity=False),
)


@given(
    st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True),
    st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), values, max_size=5),
)
def test_a_written_name_reads_back_as_it_was(name, settings):
    read, texts = read_named(written_named(name, settings))
    assert read == name and {k: setting_value(k, v) for k, v in texts.items()} == settings


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("expert", ("expert", {})),
        (" expert ( ) ", ("expert", {})),
        (
            "Expert(Z=.5, tolerance=1E-3, budget=+7,)",
            ("Expert", {"z": 0.5, "tolerance": 0.001, "budget": 7}),
        ),
        ("mixed(anti-density=2,  spread = 0.5 )", ("mixed", {"anti-density": 2, "spread": 0.5})),
        ("expert(openings=FALSE, threads=None)", ("expert", {"openings": False, "threads": None})),
    ],
)
def test_names_with_settings_are_read(text, read):
    name, texts = read_named(text)
    assert (name, {k: setting_value(k, v) for k, v in texts.items()}) == read


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("expert(fleets=1000", "'expert(fleets=1000' is not a name, nor a name with settings"),
        ("expert((fleets=1))", "is not a name, nor a name with settings"),
        ("expert(fleets=1) x", "is not a name, nor a name with settings"),
        ("", "'' is not a name"),
        ("expert(fleets=)", "'fleets=' in 'expert(fleets=)' is not a setting like fleets=1000"),
        ("expert(=3)", "'=3' in 'expert(=3)' is not a setting"),
        ("expert(fleets=1,,z=2)", "'' in 'expert(fleets=1,,z=2)' is not a setting"),
        ("expert(,)", "'' in 'expert(,)' is not a setting"),
        ("expert(fleets=1, Fleets=2)", "Fleets is set twice in 'expert(fleets=1, Fleets=2)'"),
    ],
)
def test_names_that_cannot_be_read_say_why(text, message):
    with pytest.raises(bs.BattleshipError, match=re.escape(message)):
        read_named(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abc", "fleets is a whole or decimal number, true, false or none, not 'abc'"),
        ("1_000", "not '1_000'"),
        ("١٠", "not '١٠'"),
        ("1e999", "fleets is a finite number, not '1e999'"),
        ("9" * 5000, "fleets is a number of 5,000 digits"),
    ],
)
def test_values_that_cannot_be_read_say_why(text, message):
    with pytest.raises(bs.BattleshipError, match=re.escape(message)):
        setting_value("fleets", text)


def test_long_runs_of_spaces_are_read_at_once():
    # (a pattern with spaces matched on both sides of the brackets took seconds here)
    for text in ("a" + " " * 50_000 + "!", " " * 50_000 + "a" + " " * 50_000):
        try:
            read_named(text)
        except bs.BattleshipError as error:
            assert "is not a name" in str(error)


def test_a_name_that_is_no_text_is_refused():
    with pytest.raises(bs.BattleshipError, match=r"^a name is text, not 5$"):
        read_named(5)


def test_lists_of_names_keep_the_commas_inside_brackets():
    assert split_names(" density ,expert(fleets=9, z=1), ,mixed(edges=1,spread=2)") == [
        "density",
        "expert(fleets=9, z=1)",
        "",  # (left out between two commas: said to be, not dropped)
        "mixed(edges=1,spread=2)",
    ]
    assert split_names(" , ") == ["", ""]


def test_a_shooter_with_settings_is_the_expert_with_those_fields_named_in_field_order():
    shooter = bs.get_shooter("Expert(openings=false, fleets=40)")
    assert shooter == bs.ExpertShooter(fleets=40, openings=False)  # one shooter, one name
    assert shooter.name == "expert(fleets=40, openings=false)"
    assert bs.get_shooter("expert(fleets=40,openings=false)") == shooter
    assert bs.get_shooter("EXPERT(FLEETS=40, Openings=False)") == shooter
    target = bs.get_shooter("expert(target-rollouts=true)")
    assert target.target_rollouts and target.name == "expert(target_rollouts=true)"


def test_an_expert_made_in_the_library_is_named_by_its_settings_and_pastes_back():
    from dataclasses import dataclass, field

    made = bs.ExpertShooter(fleets=1000, z=2)
    assert made.name == "expert(fleets=1000)" and made == bs.get_shooter("expert(fleets=1000)")
    assert eval(f"bs.{made!r}") == made

    @dataclass(frozen=True)
    class Mine(bs.ExpertShooter):
        name: str = field(default="mine", init=False, repr=False)

    assert (Mine().name, Mine(fleets=100).name) == ("mine", "mine(fleets=100)")


@pytest.mark.parametrize(
    "name", ["expert()", "expert(threads=none)", "expert(z=2, candidates=3)", "Expert(Z=2.0)"]
)
def test_settings_a_shooter_has_already_name_the_shooter_itself(name):
    assert bs.get_shooter(name) is bs.get_shooter("expert")


def test_a_whole_number_for_a_decimal_setting_is_the_same_setting():
    assert bs.get_shooter("expert(z=3)") == bs.get_shooter("expert(z=3.0)")
    assert bs.get_shooter("expert(z=3)").name == "expert(z=3.0)"
    assert bs.get_shooter("expert(z=-0.0)") == bs.get_shooter("expert(z=0)")  # (one row)
    assert bs.ExpertShooter(tolerance=-0.0).name == "expert(tolerance=0.0)"


@pytest.mark.parametrize("setting", ["z", "tolerance"])
def test_an_infinite_setting_is_refused_as_its_name_would_be(setting):
    with pytest.raises(bs.BattleshipError, match=f"{setting} must be a finite number, not inf"):
        bs.ExpertShooter(**{setting: float("inf")})  # (named expert(z=inf), it read back as none)
    with pytest.raises(bs.BattleshipError, match=f"{setting} must be a finite number, not a"):
        bs.ExpertShooter(**{setting: 10**400})  # (an OverflowError, past every float)


def test_a_shooter_with_settings_plays_as_the_one_built_with_them():
    by_name = bs.play_game(SMALL, "expert(fleets=40, candidates=2)", 5)
    built = bs.play_game(SMALL, bs.ExpertShooter(fleets=40, candidates=2), 5)
    assert by_name.strategy == "expert(candidates=2, fleets=40)"
    assert [s.cell for s in by_name.shots] == [s.cell for s in built.shots]


def test_simulate_keeps_one_row_per_setting_and_one_for_a_setting_named_twice():
    table = bs.simulate(
        SMALL, ["expert(fleets=30)", "expert(fleets=30 )", "expert(fleets=60)", "density"], 4
    )
    assert [r.strategy for r in table.results] == [
        "expert(fleets=30)",
        "expert(fleets=60)",
        "density",
    ]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("density(fleets=3)", "the density shooter takes no settings, not 'density(fleets=3)'"),
        ("parity(parity=false)", "the parity shooter takes no settings"),
        ("hard(x=1)", "the density shooter takes no settings"),
        (
            "expert(flets=3)",
            "the expert shooter has no setting 'flets'; it has: candidates, fleets,",
        ),
        ("expert(name=foo)", "the expert shooter has no setting 'name'"),
        ("expert(foo=bar)", "the expert shooter has no setting 'foo'"),
        ("expert(candidates=101)", "candidates must be at most 100, not 101"),
        ("expert(fleets=abc)", "fleets is a whole or decimal number, true, false or none"),
        ("expert(fleets=0)", "fleets must be a whole number of at least 1, not 0"),
        ("expert(threads=65)", "threads must be at most 64, not 65"),
        ("expert(openings=1)", "openings must be true or false, not 1"),
        ("expert(threads=true)", "threads must be a whole number of at least 1, not true"),
        ("psychic(x=1)", "unknown strategy 'psychic'; choose one of:"),
    ],
)
def test_shooter_settings_that_do_not_fit_say_why(name, message):
    with pytest.raises(bs.BattleshipError, match=re.escape(message)):
        bs.get_shooter(name)


def test_placers_take_a_strength_or_a_mixtures_weights():
    edges = bs.get_placer("Edges(Strength=6)")
    assert (edges.name, edges.kind, edges.strength) == ("edges(strength=6.0)", "edges", 6.0)
    assert bs.get_placer("edges(strength=3)") is bs.get_placer("edges")
    mixed = bs.get_placer("mixed(spread=1, Anti-Density=3)")  # parts in the registry's order
    assert mixed == bs.get_placer("mixed(anti-density=3, spread=1)")
    assert mixed == bs.get_placer("mixed(SPREAD=1.0, anti-density=3)")  # 1.0 and 1 are one
    assert mixed.name == "mixed(anti-density=3.0, spread=1.0)"
    assert mixed.parts == (("anti-density", 3.0), ("spread", 1.0))
    for game in range(1, 6):
        assert edges.place(SMALL, game) == bs.Placer("strong", "", "edges", strength=6.0).place(
            SMALL, game
        )


def test_a_huge_strength_places_without_a_warning(recwarn):
    fleet = bs.get_placer("edges(strength=1e308)").place(SMALL, 1)
    assert fleet.rules == SMALL and not [w for w in recwarn if "overflow" in str(w.message)]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("uniform(strength=1)", "the uniform placer takes no settings"),
        ("edges(weight=1)", "the edges placer takes one setting, strength, not 'edges(weight=1)'"),
        ("edges(strength=-1)", "a placer's strength is a finite number of at least 0"),
        ("mixed(edges=0)", "a mixture's weights add up to 0.0"),
        ("mixed(nowhere=1)", "unknown placer 'nowhere' in a mixture"),
        ("nowhere(x=1)", "unknown placer 'nowhere'; choose one of:"),
    ],
)
def test_placer_settings_that_do_not_fit_say_why(name, message):
    with pytest.raises(bs.BattleshipError, match=re.escape(message)):
        bs.get_placer(name)


runner = CliRunner()


def test_the_command_line_takes_settings_in_its_lists():
    result = runner.invoke(
        app,
        [
            "battleship",
            "tournament",
            "--size",
            "6",
            "--fleet",
            "3,2",
            "--games",
            "3",
            "--shooters",
            "density,expert(fleets=30, candidates=2)",
            "--placers",
            "uniform,edges(strength=6),mixed(edges=1, spread=1)",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["shooters"] == ["density", "expert(candidates=2, fleets=30)"]
    assert data["placers"] == ["uniform", "edges(strength=6.0)", "mixed(edges=1.0, spread=1.0)"]
    simulated = runner.invoke(
        app,
        [
            *("battleship", "simulate", "--size", "6", "--fleet", "3,2", "--games", "2"),
            *("--strategies", "expert(fleets=30),density", "--placer", "edges(strength=6)"),
            "--json",
        ],
    )
    assert simulated.exit_code == 0, simulated.output
    data = json.loads(simulated.stdout)
    assert list(data["strategies"]) == ["expert(fleets=30)", "density"]
    assert data["placer"] == "edges(strength=6.0)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--games", "2", "--strategies", "expert(fleets=0)"], "fleets must be a"),
        (["simulate", "--strategies", "expert(fleets=3"], "'expert(fleets=3' is not a name"),
        (["simulate", "--games", "2", "--placer", "edges(x=1)"], "the edges placer takes one"),
        (["replay", "1", "--strategy", "density(z=1)"], "the density shooter takes no settings"),
    ],
)
def test_the_command_line_says_what_is_wrong_with_a_setting(args, message):
    result = runner.invoke(app, ["battleship", *args])
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output
