"""The computer's levels in a game against a player, the same on the site and the command
line: the shooter each level fires with and the placer that hides its fleet.

>>> import hamle.battleship as bs
>>> russian = bs.Rules.named("russian")
>>> bs.level_shooter("hard", russian).name, bs.level_placer("hard", russian).name
('density', 'anti-density')
"""

from __future__ import annotations

from hamle.grid import name_key, quoted

from .errors import BattleshipError
from .placers import Placer, get_placer
from .rules import Rules
from .strategies import Shooter, get_shooter

LEVELS = ("easy", "normal", "hard", "expert")

# The Expert level's shooter: the strongest whose moves keep within the site's 300 ms at the
# 99th percentile (bench/expert.py, site_moves), by whether ships may touch. Where they may
# not, the expert rolls out rounds of 2000 fleets, up to its 8000, while its rollout shots
# stay within 600,000, a count, so a game replays alike on any machine (README, "The site's
# Expert").
EXPERT_SHOOTERS: dict[bool, Shooter] = {
    True: get_shooter("expert"),
    False: get_shooter("expert(fleets=2000, rounds=4, z=1000000000, tolerance=0, budget=600000)"),
}
# Where Hard and Expert hide the computer's fleet: the placer of one law that adds most
# shots to the strongest shooter's mean under both rule sets (README, 2000 games a pairing:
# +7.37 ± 0.24 against classic expert, +0.99 ± 0.23 against Russian exact); Easy and Normal
# hide it uniformly. (A mixture's mean is its parts' weighted mean: mixed, 0.99
# anti-density under Russian rules, cannot truly beat anti-density against one shooter.)
STRONG_PLACER = "anti-density"


def level_shooter(level: str, rules: Rules) -> Shooter:
    """The computer's shooter at ``level`` (easy, normal, hard or expert) under ``rules``.

    >>> import hamle.battleship as bs
    >>> bs.level_shooter("expert", bs.Rules.classic()).name
    'expert'
    >>> bs.level_shooter("expert", bs.Rules.named("russian")).name
    'expert(fleets=2000, rounds=4, z=1000000000.0, tolerance=0.0, budget=600000)'
    """
    level = _level(level)
    return EXPERT_SHOOTERS[rules.touching] if level == "expert" else get_shooter(level)


def level_placer(level: str, rules: Rules) -> Placer:
    """Where the computer hides its fleet at ``level`` under ``rules``.

    >>> import hamle.battleship as bs
    >>> bs.level_placer("normal", bs.Rules.classic()).name
    'uniform'
    """
    return get_placer(STRONG_PLACER if _level(level) in ("hard", "expert") else "uniform")


def _level(level: str) -> str:
    """``level`` in lower case (``"Hard"`` is hard), or a BattleshipError naming it."""
    if isinstance(level, str) and name_key(level) in LEVELS:
        return name_key(level)
    raise BattleshipError(f"unknown level {quoted(level)}; choose one of: {', '.join(LEVELS)}")
