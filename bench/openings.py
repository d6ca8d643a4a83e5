"""Work out the expert's openings again and store them in ``strategies/openings.json``.

Each rule set's opening comes from ``work_out_opening`` under ``SETTINGS`` (seeded, so a run
repeats the stored openings); a line per cell says how often games reach it and how many
shots it saves on the ranked density's cell in the first round of rollouts.

    .venv/bin/python bench/openings.py [--rules classic russian] [--out FILE]
"""

import json
import sys
from pathlib import Path

from hamle.battleship import Rules
from hamle.battleship.strategies.openings import OPENINGS_FILE, SETTINGS, work_out_opening

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import Arguments, check_out, no_repeats, report_file


def is_openings(stored) -> bool:
    """Whether ``stored`` is what this script writes: settings, and rules → cell names."""
    if not isinstance(stored, dict) or not set(stored) <= {"settings", "openings"}:
        return False
    books = stored.get("openings", {})
    return isinstance(books, dict) and all(
        isinstance(cells, list) and all(isinstance(cell, str) for cell in cells)
        for cells in books.values()
    )


def stored_openings(parser, out: Path) -> dict:
    """The openings ``out`` holds (none if it is missing or empty); a usage error if it
    holds anything else, which the run would overwrite."""
    if not out.exists() or not out.stat().st_size:
        return {}
    try:
        stored = json.loads(out.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        parser.error(f"--out {out} is not JSON ({error}); give another --out")
    if not is_openings(stored):
        parser.error(
            f"--out {out} is not an openings file (settings, and rules → cell names); "
            "give another --out"
        )
    return stored.get("openings", {})


def main() -> None:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=["classic", "russian"], nargs="+")
    parser.add_argument("--out", type=report_file, default=OPENINGS_FILE)
    args = parser.parse_args()
    no_repeats(parser, "--rules", args.rules or [])
    check_out(parser, args.out)  # creates a missing folder
    books = stored_openings(parser, args.out)
    for name in args.rules or ["classic", "russian"]:
        rules = getattr(Rules, name)()
        print(rules.describe(), flush=True)
        cells = work_out_opening(rules, SETTINGS, lambda line: print(line, flush=True))
        books[rules.game] = [rules.grid.name(cell) for cell in cells]
    lines = [
        f"  {json.dumps(rules, ensure_ascii=False)}: {json.dumps(cells)}"
        for rules, cells in books.items()
    ]
    body = ",\n".join(lines)
    text = f'{{\n "settings": {json.dumps(SETTINGS)},\n "openings": {{\n{body}\n }}\n}}\n'
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
