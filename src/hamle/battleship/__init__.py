"""Battleship ("Amiral Battı"): rules, fleets, the computer shooters and their measurements.

>>> import hamle.battleship as bs
>>> record = bs.play_game(bs.Rules.classic(), "density", game=743)
>>> record.shots_fired == len(record.shots) and record.shots_fired >= 17
True
"""

from .analysis import CHART_SUFFIXES, RandomLaw, chart
from .count import FleetCount, count_fleets
from .density import DensityMap, density, weight
from .errors import BattleshipError, CountTooLargeError, MarksError, RulesError, ShotError
from .exact import ExactMap, exact, layouts, sample
from .fleet import Fleet, Ocean, Shot, random_fleet
from .levels import LEVELS, level_placer, level_shooter
from .observation import Observation, SunkShip, draw
from .placers import PLACERS, Placer, get_placer
from .rules import Rules, Ship, placements
from .simulate import (
    GameRecord,
    PlayedGames,
    ShotRecord,
    SimulationTable,
    play_game,
    play_games,
    simulate,
)
from .strategies import (
    ALIASES,
    SHOOTERS,
    Decision,
    ExpertShooter,
    Shooter,
    get_shooter,
    hint,
)
from .strategies.expert_shooter import Weighed
from .tournament import Pairing, TournamentTable, tournament

__all__ = [
    "ALIASES",
    "CHART_SUFFIXES",
    "LEVELS",
    "PLACERS",
    "SHOOTERS",
    "BattleshipError",
    "CountTooLargeError",
    "Decision",
    "DensityMap",
    "ExactMap",
    "ExpertShooter",
    "Fleet",
    "FleetCount",
    "GameRecord",
    "MarksError",
    "Observation",
    "Ocean",
    "Pairing",
    "Placer",
    "PlayedGames",
    "RandomLaw",
    "Rules",
    "RulesError",
    "Ship",
    "Shooter",
    "Shot",
    "ShotError",
    "ShotRecord",
    "SimulationTable",
    "SunkShip",
    "TournamentTable",
    "Weighed",
    "chart",
    "count_fleets",
    "density",
    "draw",
    "exact",
    "get_placer",
    "get_shooter",
    "hint",
    "layouts",
    "level_placer",
    "level_shooter",
    "placements",
    "play_game",
    "play_games",
    "random_fleet",
    "sample",
    "simulate",
    "tournament",
    "weight",
]
