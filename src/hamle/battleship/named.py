"""Names with settings, as ``get_shooter`` and ``get_placer`` read them: a registered name,
then in brackets what to change, like ``expert(fleets=1000, candidates=4)``; each value a
whole or decimal number, true, false or none. Names and settings are read in any case."""

from __future__ import annotations

import math
import re

from hamle.grid import name_key, quoted

from .errors import BattleshipError

_NAMED = re.compile(r"([A-Za-z][\w-]*)(?:\s*\((.*)\))?", re.DOTALL)  # (of the text stripped)
_KEY = re.compile(r"[A-Za-z_][\w-]*")
_WHOLE = re.compile(r"[+-]?[0-9]+")
LONGEST = 100  # digits a whole number's setting may have (Python reads no more than 4300)
_DECIMAL = re.compile(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?=[eE]))([eE][+-]?[0-9]{1,4})?")
_WORDS = {"true": True, "false": False, "none": None}
_WORD = {repr(value): word for word, value in _WORDS.items()}


def read_named(text: str) -> tuple[str, dict[str, str]]:
    """The name ``text`` starts with and the settings in brackets after it, each setting's
    name in lower case and its value as written (``setting_value`` reads it).

    >>> read_named("Expert(fleets=1000, Z=2.5, openings=false,)")
    ('Expert', {'fleets': '1000', 'z': '2.5', 'openings': 'false'})
    >>> read_named(" density ")
    ('density', {})
    """
    if not isinstance(text, str):
        raise BattleshipError(f"a name is text, not {quoted(text)}")
    whole = _NAMED.fullmatch(text.strip())
    inside = whole[2] if whole and whole[2] is not None else ""
    if whole is None or "(" in inside or ")" in inside:
        raise BattleshipError(
            f"{quoted(text)} is not a name, nor a name with settings in brackets like "
            "name(setting=value, ...)"
        )
    parts = inside.split(",")
    if len(parts) > 1 and not parts[-1].strip():
        parts.pop()  # a comma after the last setting
    settings: dict[str, str] = {}
    for part in parts if inside.strip() else ():
        key, equals, value = (side.strip() for side in part.partition("="))
        if not equals or not _KEY.fullmatch(key) or not value:
            raise BattleshipError(
                f"{quoted(part.strip())} in {quoted(text)} is not a setting like fleets=1000"
            )
        if name_key(key) in settings:
            raise BattleshipError(f"{key} is set twice in {quoted(text)}")
        settings[name_key(key)] = value
    return whole[1], settings


def written_named(name: str, settings: dict[str, object]) -> str:
    """``name`` with ``settings`` as ``read_named`` reads them back.

    >>> written_named("expert", {"fleets": 1000, "openings": False, "threads": None})
    'expert(fleets=1000, openings=false, threads=none)'
    """
    if not settings:
        return name
    shown = [f"{key}={_WORD.get(repr(value), repr(value))}" for key, value in settings.items()]
    return f"{name}({', '.join(shown)})"


def decimal(value: object) -> object:
    """A whole number as a float, so that 3 and 3.0 are one setting; other values as given
    (for the checks of what they set to name).

    >>> decimal(3), decimal(2.5), decimal(True)
    (3.0, 2.5, True)
    """
    return float(value) if type(value) is int else value


def said(value: object) -> str:
    """A setting's value as an error says it: true, false and none as a name writes them.

    >>> said(True), said(None), said(2.5), said("x")
    ('true', 'none', '2.5', "'x'")
    """
    return _WORD.get(repr(value), quoted(value))


def split_names(text: str) -> list[str]:
    """A comma-separated list of names, commas inside a name's brackets kept; an empty
    name where two commas have nothing between them, or a comma starts or ends the list.

    >>> split_names("density, expert(fleets=1000, candidates=4),")
    ['density', 'expert(fleets=1000, candidates=4)', '']
    """
    names, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if char == "," and depth <= 0:
            names.append(text[start:i])
            start = i + 1
    names.append(text[start:])
    return [name.strip() for name in names]


def setting_value(key: str, text: str) -> object:
    """The value of setting ``key`` written as ``text``.

    >>> setting_value("fleets", "1000"), setting_value("z", ".5"), setting_value("x", "None")
    (1000, 0.5, None)
    """
    if name_key(text) in _WORDS:
        return _WORDS[name_key(text)]
    if _WHOLE.fullmatch(text):
        if len(text.lstrip("+-")) > LONGEST:
            raise BattleshipError(f"{key} is a number of {len(text.lstrip('+-')):,} digits")
        return int(text)
    if _DECIMAL.fullmatch(text):
        if not math.isfinite(float(text)):
            raise BattleshipError(f"{key} is a finite number, not {quoted(text)}")
        return float(text)
    raise BattleshipError(
        f"{key} is a whole or decimal number, true, false or none, not {quoted(text)}"
    )
