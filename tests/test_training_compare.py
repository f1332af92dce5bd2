"""training.compare's rows and its list of photos read differently, on readings made up here (the
command itself reads every suite twice and more: minutes, not for the suite)."""
from __future__ import annotations

from collections import Counter

import pytest

from training.compare import diff, line, main
from training.evaluate import PhotoResult


def _photo(name, truth, predicted):
    return PhotoResult(name=name, kind="hand_row", truth=Counter(truth), predicted=Counter(predicted),
                       truth_back=0, predicted_back=0)


def test_a_row_counts_red_fives_found_and_read_where_there_are_none():
    rows = [_photo("a", ["0m", "5p", "1z"], ["0m", "5p", "1z"]),        # exact, its red five found
            _photo("b", ["0p", "2s"], ["5p", "2s"]),                    # a red five read plain
            _photo("c", ["5s", "3m"], ["0s", "3m", "4m"])]             # a red five where there is none, a tile invented
    out = line(rows)
    assert out["photos"] == 3 and out["exact"] == pytest.approx(1 / 3, abs=0.01)
    assert (out["red_found"], out["red_labelled"], out["red_false"]) == (1, 2, 1)
    assert out["f1"] == pytest.approx(2 * (5 / 8) * (5 / 7) / (5 / 8 + 5 / 7), abs=1e-3)


def test_no_red_five_labelled_is_none_found_not_an_error():
    assert line([_photo("a", ["1m"], ["1m"])])["red_found"] == 0


def test_the_photos_read_differently_say_what_each_reading_added_and_missed():
    a = [_photo("same", ["1m"], ["1m"]), _photo("moved", ["4m", "5m"], ["5m", "5m"])]
    b = [_photo("same", ["1m"], ["1m"]), _photo("moved", ["4m", "5m"], ["4m", "5m"])]
    out = diff("hard", a, b)
    assert len(out) == 1 and "moved" in out[0]
    before, after = out[0].split("->")
    assert "+5m" in before and "-4m" in before and after.strip() == "exact"


def test_one_models_folder_or_an_unknown_suite_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["models"])
    assert "at least two" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["models", "models", "--skip", "val,nope"])
    assert "no suite nope" in capsys.readouterr().err


def test_the_same_folder_given_twice_is_read_twice(monkeypatch, capsys):
    """A folder given twice is a check that its reading repeats: each is read, not one compared with itself."""
    import training.compare as compare

    readings = iter([[_photo("p", ["1m"], ["1m"])], [_photo("p", ["1m"], ["2m"])]])
    monkeypatch.setattr(compare, "suites", lambda tmp, skip: {"hard": ["p"]})
    monkeypatch.setattr(compare, "ours", lambda models: models)
    monkeypatch.setattr(compare, "run", lambda photos, reader: next(readings))
    assert main(["models", "models"]) == 0
    out = capsys.readouterr().out
    assert "read differently, models -> models: 1 photos" in out
