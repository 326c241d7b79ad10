"""The by-mail season, small, over the twin: real handlers, stream consumer and sweep on moto."""

from __future__ import annotations

from tests.simulation import Season, aws_twin, most_reminders_in_12_hours, run_in_memory, run_on_twin


def test_a_small_season_over_the_twin_finishes_every_game_and_reports_what_the_season_in_memory_reports() -> (
    None
):
    # A seed whose three games see each remedy at least once (the same seed plays the same season).
    season = Season(games=3, seed=14, timeout_hours=24, target_score=8)
    with aws_twin():
        report = run_on_twin(season)
    assert report["games_finished"] == report["games"] == 3
    assert report["most_reminders_for_a_player_in_12_hours"] <= 1
    kinds = report["notifications_by_kind"]
    assert kinds["your_turn"] > 0
    assert kinds["game_over"] >= 9  # everyone seated hears the end: at least 3 players a game
    assert report["timeouts_applied"] > 0  # one player in five never answers
    # Through the routes: autoplay, vacations, extensions, and a seat offered and taken by a newcomer.
    marks = report["marks"]
    assert report["autoplayed_moves"] > 0
    assert marks["vacations"] > 0
    assert marks["extensions"] > 0
    assert marks["seats_taken"] > 0
    # The in-memory season (`make simulate`) stands for the twin: move for move, the same season.
    assert run_in_memory(season) == report


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
