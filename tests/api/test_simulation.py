"""The by-mail simulation, small: real handlers, stream consumer and sweep on moto, on a fake clock."""

from __future__ import annotations

from tests.simulation import Season, aws_twin, most_reminders_in_12_hours, run


def test_a_small_season_finishes_every_game_and_reminds_nobody_twice_in_12_hours() -> None:
    with aws_twin():
        report = run(Season(games=3, seed=11, timeout_hours=24))
    assert report["games_finished"] == report["games"] == 3
    assert report["most_reminders_for_a_player_in_12_hours"] <= 1
    kinds = report["notifications_by_kind"]
    assert kinds["your_turn"] > 0
    assert kinds["game_over"] >= 9  # everyone seated hears the end: at least 3 players a game
    assert report["timeouts_applied"] > 0  # one player in five never answers


def test_reminders_in_12_hours_are_counted_per_player_over_a_sliding_window() -> None:
    hour = 3600
    published = [
        (0, "reminder", "p1", "g"),
        (11 * hour, "reminder", "p1", "g"),
        (30 * hour, "reminder", "p1", "g"),
        (0, "reminder", "p2", "g"),
        (1, "your_turn", "p2", "g"),
    ]
    assert most_reminders_in_12_hours(published) == 2
    assert most_reminders_in_12_hours(published[2:]) == 1
