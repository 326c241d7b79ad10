"""The season's report: one JSON object, the same for the same seed (no wall time in it)."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any

from dixit.state import GameState

from .model import Played

TWELVE_HOURS = 12 * 3600


def most_reminders_in_12_hours(published: list[tuple[int, str, str, str]]) -> int:
    times: dict[str, list[int]] = defaultdict(list)
    for at, kind, player_id, _ in published:
        if kind == "reminder":
            times[player_id].append(at)
    most = 0
    for stamps in times.values():
        stamps.sort()
        lo = 0
        for hi, at in enumerate(stamps):
            while at - stamps[lo] >= TWELVE_HOURS:
                lo += 1
            most = max(most, hi - lo + 1)
    return most


def _reason(state: GameState) -> str:
    return state.end_reason.value if state.end_reason is not None else "?"


def _sorted(counts: Counter[str]) -> dict[str, int]:
    return dict(sorted(counts.items()))


def end_reasons_by_table_size(played: Played) -> dict[str, dict[str, int]]:
    by_size: dict[int, Counter[str]] = defaultdict(Counter)
    for game_id, state in played.final.items():
        by_size[len(played.seats[game_id])][_reason(state)] += 1
    return {str(size): _sorted(by_size[size]) for size in sorted(by_size)}


def answering(played: Played, game_id: str) -> int:
    """How many of the game's seats keep answering (the harsh model's silent ones never do)."""
    return sum(1 for p in played.seats[game_id] if p not in played.silent)


def abandoned_by_answering_players(played: Played) -> dict[str, int]:
    """Abandoned games by how many of their players kept answering: the bound is none at 2 or more."""
    counts = Counter(
        answering(played, g) for g, state in played.final.items() if _reason(state) == "abandoned"
    )
    return {str(n): counts[n] for n in sorted(counts)}


def game_days(played: Played) -> dict[str, float | None]:
    days = sorted((played.finished_at[g] - played.started_at[g]) / 86_400 for g in played.finished_at)
    return {
        "min": round(days[0], 1) if days else None,
        "median": round(statistics.median(days), 1) if days else None,
        "p90": round(days[int(len(days) * 0.9) - 1], 1) if len(days) >= 10 else None,
        "max": round(days[-1], 1) if days else None,
    }


def build(played: Played) -> dict[str, Any]:
    tally, season = played.tally, played.season
    reasons = Counter(_reason(state) for state in played.final.values())
    notes = Counter(state.end_note.value for state in played.final.values() if state.end_note is not None)
    return {
        "games": len(played.seats),
        "games_finished": len(played.final),
        "seed": season.seed,
        "timeout_hours": season.timeout_hours,
        "timeout_policy": season.timeout_policy or "default",
        "end_reasons": _sorted(reasons),
        "abandoned_by_note": _sorted(notes),
        "end_reasons_by_table_size": end_reasons_by_table_size(played),
        "abandoned_by_answering_players": abandoned_by_answering_players(played),
        "players": len({p for ps in played.seats.values() for p in ps}),
        "silent_players": len(played.silent),
        "most_reminders_for_a_player_in_12_hours": most_reminders_in_12_hours(tally.published),
        "game_days": game_days(played),
        "notifications_by_kind": _sorted(Counter(kind for _, kind, _, _ in tally.published)),
        "moves": tally.moves,
        "moves_refused": _sorted(tally.refused),
        "sweeps": tally.sweeps,
        "timeouts_applied": tally.timeouts,
        "players_timed_out": tally.players_timed_out,
        "sweep_races_lost": tally.lost_races,
        "timeouts_by_phase": _sorted(tally.timeouts_by_phase),
        "autoplayed_moves": tally.marks["autoplayed_submissions"] + tally.marks["autoplayed_votes"],
        "marks": _sorted(tally.marks),
        "players_with_quiet_hours": len(played.nights),
        "messages_in_quiet_hours": _sorted(tally.messages_in_quiet_hours),
        "timeouts_in_quiet_hours": tally.timeouts_in_quiet_hours,
        "timeouts_held_asleep": tally.timeouts_held_asleep,
    }
