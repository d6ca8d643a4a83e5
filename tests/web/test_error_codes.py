"""Every error code the engines and the site can send has a Turkish text in the pages,
and each text uses only values its error gives."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

SRC = Path(__file__).parents[2] / "src" / "hamle"
ERRORS_JS = SRC / "web" / "static" / "js" / "errors.js"
ROUTING = {
    "site.http_400",
    "site.http_404",
    "site.http_405",
}  # FastAPI's own answers (``app._http``)


def turkish_texts() -> dict[str, str]:
    """ERRORS_TR of errors.js: code → template."""
    text = ERRORS_JS.read_text(encoding="utf-8")
    block = text[text.index("export const ERRORS_TR") : text.index("\n};")]
    return dict(re.findall(r'"([a-z_]+\.[a-z_0-9]+)":\s*"((?:[^"\\]|\\.)*)"', block))


def placeholders(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)(?:\|\w+)?\}", template))


def raised() -> dict[str, list[tuple[str, set[str]]]]:
    """Per code in the source, each place that gives it and the params it passes there."""
    found: dict[str, list[tuple[str, set[str]]]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                given = {k.arg: k.value for k in node.keywords}
                if "code" in given and constants(given["code"]):
                    assert None not in given, f"{path}:{node.lineno}: spell out the params"
                    params = set(given) - {"code"}
                    for code in constants(given["code"]):
                        found.setdefault(code, []).append((f"{path.name}:{node.lineno}", params))
            elif isinstance(node, ast.Dict):  # a response body written out (the 413, the 422)
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        for code in constants(value):
                            found.setdefault(code, []).append((f"{path.name}:{node.lineno}", None))
    return found


def constants(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value else []
    if isinstance(node, ast.IfExp):
        return constants(node.body) + constants(node.orelse)
    return []


def test_every_code_has_a_turkish_text_and_every_text_a_code():
    codes, texts = set(raised()) | ROUTING, turkish_texts()
    assert len(codes) > 60
    assert sorted(codes - set(texts)) == [], "codes without a Turkish text"
    assert sorted(set(texts) - codes) == [], "Turkish texts of no code"


def test_each_turkish_text_uses_only_the_values_its_error_gives():
    texts = turkish_texts()
    for code, places in raised().items():
        for where, params in places:
            if params is not None:
                missing = placeholders(texts[code]) - params
                assert not missing, (code, where, missing)


def turkish_problem_words() -> set[str]:
    """The problem types errors.js says in Turkish (WORDS.problem)."""
    text = ERRORS_JS.read_text(encoding="utf-8")
    block = text[text.index("  problem: {") :]
    return set(re.findall(r"^\s+(\w+):", block[: block.index("\n  },")], re.MULTILINE))


def test_the_problems_of_careless_bodies_are_said_in_turkish(client):
    bodies = [
        ("/api/battleship/density", {"hit": ["\ud800"]}),  # a lone surrogate: not text
        ("/api/battleship/density", {"hit": [5], "afloat": "5"}),
        ("/api/battleship/density", {"hit": "E5", "sunk": {"a": 1}}),
        ("/api/battleship/stats", {"games": 1.5, "rules": None}),
        ("/api/battleship/stats", {"games": 10**6, "rules": "weekly"}),
        ("/api/tour/games", {"kind": "free", "start": "", "date": "x" * 99}),
    ]
    seen = set()
    for path, body in bodies:
        sent = json.dumps(body)  # escaped, as JSON may write a lone surrogate
        response = client.post(path, content=sent, headers={"content-type": "application/json"})
        assert response.status_code == 422, (path, body, response.text)
        seen |= {p["type"] for p in response.json()["params"]["problems"]}
    assert "string_unicode" in seen and len(seen) >= 8
    assert sorted(seen - turkish_problem_words()) == []
