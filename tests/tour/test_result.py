"""A game's result and its line to share (the site's summary and the end of ``play``)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

import hamle.tour as tour


def test_a_daily_result_names_its_date_and_free_play_its_start():
    daily = tour.Result(start=28, score=100, hints=99, best_combo=99, date=dt.date(2026, 12, 1))
    assert daily.share() == {
        "en": "Yüz Yüze 2026-12-01 · 100/100 · 99 hints · best combo 99",
        "tr": "Yüz Yüze 2026-12-01 · 100/100 · 99 ipucu · en iyi kombo 99",
    }
    free = tour.Result(start="a1", score=np.int64(8), hints=1, best_combo=0, undos=2)
    assert free.share() == {
        "en": "Yüz Yüze free play A1 · 8/100 · 1 hint · best combo 0 · 2 undos",
        "tr": "Yüz Yüze serbest oyun A1 · 8/100 · 1 ipucu · en iyi kombo 0 · 2 geri alma",
    }
    assert str(free) == free.share()["en"] and type(free.score) is int
    assert tour.Result(start="I3", score=1, date="2026-12-01").date == dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"start": "K1", "score": 1}, "K1"),
        ({"start": "A1", "score": 0}, "a score counts filled cells: 1 to 100, not 0"),
        ({"start": "A1", "score": 101}, "1 to 100, not 101"),
        ({"start": "A1", "score": True}, "score is a whole number 0 or more, not True"),
        ({"start": "A1", "score": 5, "hints": -1}, "hints is a whole number 0 or more, not -1"),
        ({"start": "A1", "score": 5, "undos": 1.5}, "undos is a whole number 0 or more"),
        ({"start": "A1", "score": 5, "best_combo": 5}, "5 cells filled make at most 4, not 5"),
        ({"start": "A1", "score": 5, "date": "2026-12-01"}, "starts at I3, not A1"),
        ({"start": "I3", "score": 5, "date": "2026-12-32"}, "'2026-12-32' is not a date"),
    ],
)
def test_a_result_no_game_can_have_is_refused_by_what_is_wrong(fields, message):
    with pytest.raises(tour.TourError, match=message.replace("(", r"\(")):
        tour.Result(**fields)
