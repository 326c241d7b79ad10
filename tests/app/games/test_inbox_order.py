"""The inbox's order (issue 9): your turn first, the nearest deadline first; then the rest."""

from __future__ import annotations

from app.core.records import Membership
from app.games.inbox import most_urgent_first
from dixit.state import Phase

STAMP = "2026-03-01T12:00:00.000+00:00"


def entry(game_id: str, phase: Phase, *, your_turn: bool = False, deadline: int | None = None) -> Membership:
    return Membership(
        player_id="p_me",
        game_id=game_id,
        phase=phase,
        your_turn=your_turn,
        deadline=deadline,
        round_number=None if phase is Phase.LOBBY else 1,
        waiting=(),
        player_count=4,
        end_reason=None,
        updated_at=STAMP,
    )


def test_your_turn_comes_first_nearest_deadline_first_then_games_waiting_on_others_then_lobbies() -> None:
    entries = [
        entry("g_lobby", Phase.LOBBY),
        entry("g_later", Phase.VOTING, your_turn=True, deadline=5_000),
        entry("g_others", Phase.SUBMITTING),
        entry("g_full_lobby", Phase.LOBBY, your_turn=True),  # the host may start it: no deadline
        entry("g_sooner", Phase.SUBMITTING, your_turn=True, deadline=1_000),
    ]
    assert [e.game_id for e in most_urgent_first(entries)] == [
        "g_sooner",
        "g_later",
        "g_full_lobby",
        "g_others",
        "g_lobby",
    ]
