"""Turning game records and rule views into their JSON shapes (adding names and image links on the way out).

Deadlines leave the core as epoch seconds and the API as ISO-8601 UTC strings ending in `Z`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from app.core.records import GameRecord
from app.decks.card_images import CardImages
from app.decks.descriptions import alt_text, card_bodies
from app.games.rematch_ids import rematch_id
from dixit.deadlines import nudge_after
from dixit.settings import Settings
from dixit.state import GameState, Phase, RoundResult
from dixit.views import Owed, view_for


@lru_cache(maxsize=1_024)  # a game's deadlines show in every view of it, its players' too
def iso(epoch_seconds: int) -> str:
    return datetime.fromtimestamp(epoch_seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def names_in(state: GameState) -> dict[str, str]:
    return {p.player_id: p.name for p in state.players}


def round_result_body(
    result: RoundResult,
    names: Mapping[str, str],
    images: CardImages,
    described: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """`presented.round_result` as RoundResultOut's JSON."""
    return {
        "number": result.number,
        "storyteller_id": result.storyteller_id,
        "storyteller_name": names.get(result.storyteller_id, ""),
        "clue": result.clue,
        "storyteller_card": result.storyteller_card,
        "cards": [
            {
                "card_id": c.card_id,
                "image_url": url,
                "alt": alt_text(c.card_id, described),
                "owner_id": c.owner_id,
                "owner_name": names.get(c.owner_id, ""),
                "voter_ids": list(c.voter_ids),
                "voters": [{"player_id": v, "name": names.get(v, "")} for v in c.voter_ids],
                "autoplayed": c.autoplayed,
            }
            for c, url in zip(result.cards, images.urls_for([c.card_id for c in result.cards]), strict=True)
        ],
        "points": dict(result.points),
        "autovoted": list(result.autovoted),
    }


def settings_body(settings: Settings) -> dict[str, Any]:
    """SettingsOut's JSON for the rules' settings (a fresh copy: the answer is the caller's to change).

    Written out rather than through the model (app.games.settings_out): every view shows the settings,
    and the model's class and schema would be built on a view's cold start for this alone (issue 36).
    tests/app/games/test_game_body.py holds the two to the same JSON.
    """
    return {
        "rules": settings.rules.value,
        "decks": list(settings.decks),
        "max_players": settings.max_players,
        "target_score": settings.target_score,
        "move_timeout_hours": settings.move_timeout_hours,
        "timeout_policy": settings.timeout_policy.value,
        "title": settings.title,
        "vacation_days": settings.vacation_days,
        "table_talk": settings.table_talk.value,
    }


def _owes(owed: Owed | None) -> dict[str, Any] | None:
    if owed is None:
        return None
    return {
        "move": owed.move.value,
        "count": owed.count,
        "counts": list(owed.counts),
        "deadline": iso(owed.deadline),
    }


def game_body(
    record: GameRecord,
    viewer_id: str | None,
    images: CardImages,
    described: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The game as `viewer_id` sees it, as GameOut's JSON.

    `described`: the custom cards' descriptions (app.games.card_descriptions). A card's alt text depends
    on its id alone, the same for every viewer, and shows only where its id does: a hidden card has none.

    Built as plain data, not as models: the resolver validates every answer against GameOut anyway (a
    body that breaks it is a 500), so building models here validated each game view twice.
    """
    view = view_for(record.state, viewer_id)
    names = names_in(record.state)
    rnd = view.round
    you = view.you
    return {
        "game_id": view.game_id,
        "version": view.version,
        "phase": view.phase.value,
        "settings": settings_body(view.settings),
        "visibility": record.visibility.value,
        "host_id": view.host_id,
        "invite_code": record.invite_code if you is not None else None,
        "players": [
            {
                "player_id": p.player_id,
                "name": p.name,
                "score": p.score,
                "hand_size": p.hand_size,
                "away": p.away,
                "vacation_until": None if p.vacation_until is None else iso(p.vacation_until),
                "vacation_days_left": p.vacation_days_left,
                "offered": p.offered,
                "leaving": p.leaving,
                "timed_out": p.timed_out,
                "departed": p.departed,
            }
            for p in view.players
        ],
        "your_turn": view.your_turn,
        "round": None
        if rnd is None
        else {
            "number": rnd.number,
            "storyteller_id": rnd.storyteller_id,
            "storyteller_name": names.get(rnd.storyteller_id, ""),
            "clue": rnd.clue,
            "table": card_bodies(images, rnd.table, described),
            "waiting_for": list(rnd.waiting_for),
            "waiting": [
                {
                    "player_id": w.player_id,
                    "name": w.name,
                    "move": w.move.value,
                    "deadline": iso(w.deadline),
                    "nudge_after": iso(nudge_after(w.deadline, view.settings.move_timeout_seconds)),
                }
                for w in rnd.waiting
            ],
            "deadline": None if rnd.deadline is None else iso(rnd.deadline),
            "cards_to_submit": rnd.cards_to_submit,
            "votes_allowed": list(rnd.votes_allowed),
            "sitting_out": list(rnd.sitting_out),
            "autoplayed": list(rnd.autoplayed),
            "autovoted": list(rnd.autovoted),
            "extended": list(rnd.extended),
        },
        "you": None
        if you is None
        else {
            "player_id": you.player_id,
            "hand": card_bodies(images, you.hand, described),
            "submitted": list(you.submitted),
            "votes": list(you.votes),
            "owes": _owes(you.owes),
            "away": you.away,
        },
        "last_round": None
        if view.last_round is None
        else round_result_body(view.last_round, names, images, described),
        "winners": list(view.winners),
        "end_reason": None if view.end_reason is None else view.end_reason.value,
        "end_note": None if view.end_note is None else view.end_note.value,
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        "rematch_game_id": rematch_id(view.game_id)
        if view.phase is Phase.FINISHED and you is not None
        else None,
    }
