"""Game events as one player may see them: the shapes webhooks (and later the feed) carry, defined once.

`derive_events` is pure: the DynamoDB Streams consumer hands it the old and the new image of a game and
gets, for one recipient, the events that change made. Each event is built from what that player's game
view already shows (seats, scores, who the game waits on, the clue once given, the reveal once scored),
so no hand, hidden card, pile or vote before the reveal can reach an event.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal, get_args

from pydantic import ConfigDict, Field, TypeAdapter

from app.core.schema_base import Schema
from dixit.state import GameState, Phase, RoundResult
from dixit.views import waiting_for

EventType = Literal[
    "game.started",
    "turn.owed",
    "round.revealed",
    "game.finished",
    "player.joined",
    "player.left",
    "reminder",
    "timeout",
    "rematch.opened",
    "message.posted",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)
MoveKind = Literal["clue", "cards", "vote"]
_MOVE_OF_PHASE: dict[Phase, MoveKind] = {
    Phase.STORYTELLING: "clue",
    Phase.SUBMITTING: "cards",
    Phase.VOTING: "vote",
}


class _Model(Schema):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Seat(_Model):
    player_id: str = Field(description="The player's id", examples=["p_3f9a1c2b4d5e6f70"])
    name: str = Field(description="The player's name as others see it", examples=["Ada"])
    score: int = Field(description="Points so far", examples=[12])


class OwedMove(_Model):
    player_id: str = Field(description="The player's id", examples=["p_3f9a1c2b4d5e6f70"])
    move: MoveKind = Field(description="The move owed: clue, submit or vote", examples=["vote"])


class RevealedCard(_Model):
    card_id: str = Field(description="A card on the revealed table", examples=["base-017"])
    owner_id: str = Field(
        description="Who put this card forward (the storyteller for theirs)", examples=["p_3f9a1c2b4d5e6f70"]
    )
    voter_ids: list[str] = Field(description="Who voted for this card", examples=[["p_8e7d6c5b4a392817"]])


class RevealedRound(_Model):
    number: int = Field(description="The round's number, from 1", examples=[3])
    storyteller_id: str = Field(description="The storyteller's player id", examples=["p_3f9a1c2b4d5e6f70"])
    clue: str = Field(description="The storyteller's clue", examples=["the last door"])
    storyteller_card: str = Field(description="The storyteller's card", examples=["base-017"])
    cards: list[RevealedCard] = Field(
        description="Every card on the table, with its owner and its voters",
        examples=[[{"card_id": "base-017", "owner_id": "p_3f9a1c2b4d5e6f70", "voter_ids": []}]],
    )
    points: dict[str, int] = Field(
        description="Points each player won this round, by player id", examples=[{"p_3f9a1c2b4d5e6f70": 3}]
    )


class _Event(_Model):
    id: str = Field(
        description="Stable for this event and recipient: the same change always has the same id",
        examples=["evt_5d41402abc4b2a76_0000000012_turn.owed"],
    )
    game_id: str = Field(description="The game's id", examples=["g_5d41402abc4b2a76"])
    game_version: int = Field(description="The game version that produced the event", examples=[12])
    recipient_id: str = Field(
        description="The player this copy of the event is for", examples=["p_3f9a1c2b4d5e6f70"]
    )
    occurred_at: str = Field(
        description="When the change was committed (ISO-8601 UTC)", examples=["2026-11-30T09:30:00Z"]
    )


class GameStarted(_Event):
    type: Literal["game.started"] = Field(
        default="game.started", description="The event type", examples=["game.started"]
    )
    players: list[Seat] = Field(
        description="The seats, in play order",
        examples=[[{"player_id": "p_3f9a1c2b4d5e6f70", "name": "Ada", "score": 0}]],
    )
    storyteller_id: str = Field(description="The storyteller's player id", examples=["p_3f9a1c2b4d5e6f70"])


class TurnOwed(_Event):
    """The game now waits on these players; sent when a new stage of a round begins."""

    type: Literal["turn.owed"] = Field(
        default="turn.owed", description="The event type", examples=["turn.owed"]
    )
    round_number: int = Field(description="The round's number, from 1", examples=[3])
    owed: list[OwedMove] = Field(
        description="Who owes what now", examples=[[{"player_id": "p_3f9a1c2b4d5e6f70", "move": "vote"}]]
    )
    you_owe: bool = Field(description="Whether the recipient is among those who owe a move", examples=[True])
    clue: str | None = Field(default=None, description="The storyteller's clue", examples=["the last door"])
    deadline: str | None = Field(
        default=None, description="When the owed moves time out, if known", examples=["2026-11-30T09:30:00Z"]
    )


class RoundRevealed(_Event):
    type: Literal["round.revealed"] = Field(
        default="round.revealed", description="The event type", examples=["round.revealed"]
    )
    round: RevealedRound = Field(
        description="The revealed round: who played what, who voted for what, the points",
        examples=[
            {
                "number": 3,
                "storyteller_id": "p_3f9a1c2b4d5e6f70",
                "clue": "the last door",
                "storyteller_card": "base-017",
                "cards": [],
                "points": {},
            }
        ],
    )
    scores: list[Seat] = Field(
        description="Every seat with its score",
        examples=[[{"player_id": "p_3f9a1c2b4d5e6f70", "name": "Ada", "score": 14}]],
    )


class GameFinished(_Event):
    type: Literal["game.finished"] = Field(
        default="game.finished", description="The event type", examples=["game.finished"]
    )
    winners: list[str] = Field(description="The winners' player ids", examples=[["p_3f9a1c2b4d5e6f70"]])
    scores: list[Seat] = Field(
        description="Every seat with its score",
        examples=[[{"player_id": "p_3f9a1c2b4d5e6f70", "name": "Ada", "score": 14}]],
    )
    end_reason: str | None = Field(
        default=None,
        description="Why the game ended: target_score, deck_exhausted or abandoned",
        examples=["target_score"],
    )


class PlayerJoined(_Event):
    type: Literal["player.joined"] = Field(
        default="player.joined", description="The event type", examples=["player.joined"]
    )
    player_id: str = Field(description="The player's id", examples=["p_3f9a1c2b4d5e6f70"])
    name: str = Field(description="The player's name as others see it", examples=["Ada"])


class PlayerLeft(_Event):
    type: Literal["player.left"] = Field(
        default="player.left", description="The event type", examples=["player.left"]
    )
    player_id: str = Field(description="The player's id", examples=["p_3f9a1c2b4d5e6f70"])


class Reminder(_Event):
    type: Literal["reminder"] = Field(default="reminder", description="The event type", examples=["reminder"])
    round_number: int = Field(description="The round's number, from 1", examples=[3])
    move: MoveKind = Field(description="The move owed: clue, submit or vote", examples=["vote"])
    deadline: str = Field(
        description="When the owed move times out (ISO-8601 UTC)", examples=["2026-11-30T09:30:00Z"]
    )


class Timeout(_Event):
    type: Literal["timeout"] = Field(default="timeout", description="The event type", examples=["timeout"])
    player_id: str = Field(description="Who did not move in time", examples=["p_3f9a1c2b4d5e6f70"])
    round_number: int = Field(description="The round's number, from 1", examples=[3])
    move: MoveKind = Field(description="The move owed: clue, submit or vote", examples=["vote"])


class RematchOpened(_Event):
    """The finished game's rematch lobby opened, with its settings: `POST /games/{id}/rematch` joins it."""

    type: Literal["rematch.opened"] = Field(
        default="rematch.opened", description="The event type", examples=["rematch.opened"]
    )
    rematch_game_id: str = Field(
        description="The rematch lobby's game id (the finished game's `rematch_game_id`)",
        examples=["g_8e7d6c5b4a392817"],
    )
    opener_id: str = Field(description="Who opened it (its host)", examples=["p_3f9a1c2b4d5e6f70"])
    opener_name: str = Field(description="Their name as others see it", examples=["Ada"])


class MessagePosted(_Event):
    """Someone said something at the game's table (docs/table-talk.md): told to every other seated player.
    Its `game_version` is the game's when the message was written (talk never changes the game)."""

    type: Literal["message.posted"] = Field(
        default="message.posted", description="The event type", examples=["message.posted"]
    )
    message_id: str = Field(description="The message's id", examples=["m_1796031000000a1b2c3d4"])
    author_id: str = Field(description="Who wrote it", examples=["p_3f9a1c2b4d5e6f70"])
    author_name: str = Field(description="Their seat's name", examples=["Ada"])
    text: str = Field(description="What they wrote (plain text)", examples=["I knew the cat was yours!"])
    round_number: int = Field(description="The round it was written in (0 in the lobby)", examples=[3])
    phase: Phase = Field(description="The phase it was written in", examples=["storytelling"])


Event = Annotated[
    GameStarted
    | TurnOwed
    | RoundRevealed
    | GameFinished
    | PlayerJoined
    | PlayerLeft
    | Reminder
    | Timeout
    | RematchOpened
    | MessagePosted,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event, config=ConfigDict(defer_build=True))


def event_id(game_id: str, version: int, kind: str, recipient_id: str, subject: str = "") -> str:
    """Deterministic, so a Streams batch that is retried yields the same ids (receivers dedupe on them)."""
    digest = hashlib.sha256(f"{game_id}|{version}|{kind}|{recipient_id}|{subject}".encode()).hexdigest()
    return f"evt_{digest[:24]}"


def _scores(state: GameState) -> list[Seat]:
    return [Seat(player_id=p.player_id, name=p.name, score=p.score) for p in state.players]


def _revealed(result: RoundResult) -> RevealedRound:
    return RevealedRound(
        number=result.number,
        storyteller_id=result.storyteller_id,
        clue=result.clue,
        storyteller_card=result.storyteller_card,
        cards=[
            RevealedCard(card_id=c.card_id, owner_id=c.owner_id, voter_ids=list(c.voter_ids))
            for c in result.cards
        ],
        points=dict(result.points),
    )


def _stage(state: GameState | None) -> tuple[str, int, str] | None:
    """What the game is waiting for, coarsely: a new stage is what makes players owe a move."""
    if state is None or state.round is None or state.phase not in _MOVE_OF_PHASE:
        return None
    return (state.phase.value, state.round.number, state.round.storyteller_id)


def derive_events(
    old: GameState | None,
    new: GameState,
    recipient_id: str,
    *,
    occurred_at: str,
    deadline: str | None = None,
) -> list[Event]:
    """The events the change `old` -> `new` means for `recipient_id`, in the order they happened.

    `old` is None for a game that was just created. `deadline` is when the moves owed in `new` time out,
    if the caller knows it (the rules core keeps no clock). A recipient who is in neither state gets
    nothing; one who just left learns only who left.
    """
    in_old = old is not None and old.player(recipient_id) is not None
    in_new = new.player(recipient_id) is not None
    if not (in_old or in_new):
        return []
    game_id, version = new.game_id, new.version

    def ident(kind: str, subject: str = "") -> str:
        return event_id(game_id, version, kind, recipient_id, subject)

    common: dict[str, Any] = {
        "game_id": game_id,
        "game_version": version,
        "recipient_id": recipient_id,
        "occurred_at": occurred_at,
    }
    events: list[Event] = []
    before = set(old.player_ids) if old is not None else set()
    after = set(new.player_ids)
    for player in new.players:
        if player.player_id not in before:
            events.append(
                PlayerJoined(
                    id=ident("player.joined", player.player_id),
                    player_id=player.player_id,
                    name=player.name,
                    **common,
                )
            )
    for player_id in old.player_ids if old is not None else []:
        if player_id not in after:
            events.append(PlayerLeft(id=ident("player.left", player_id), player_id=player_id, **common))
    if not in_new:
        return events

    was_playing = old is not None and old.phase is not Phase.LOBBY
    if not was_playing and new.phase is not Phase.LOBBY and new.round is not None:
        events.append(
            GameStarted(
                id=ident("game.started"),
                players=_scores(new),
                storyteller_id=new.round.storyteller_id,
                **common,
            )
        )
    old_reveal = old.last_round.number if old is not None and old.last_round is not None else None
    if new.last_round is not None and new.last_round.number != old_reveal:
        events.append(
            RoundRevealed(
                id=ident("round.revealed", str(new.last_round.number)),
                round=_revealed(new.last_round),
                scores=_scores(new),
                **common,
            )
        )
    if new.phase is Phase.FINISHED and (old is None or old.phase is not Phase.FINISHED):
        events.append(
            GameFinished(
                id=ident("game.finished"),
                winners=list(new.winners),
                scores=_scores(new),
                end_reason=None if new.end_reason is None else new.end_reason.value,
                **common,
            )
        )
    stage = _stage(new)
    if stage is not None and stage != _stage(old) and new.round is not None:
        move = _MOVE_OF_PHASE[new.phase]
        owed = waiting_for(new)
        events.append(
            TurnOwed(
                id=ident("turn.owed", f"{stage[0]}:{stage[1]}"),
                round_number=new.round.number,
                owed=[OwedMove(player_id=pid, move=move) for pid in owed],
                you_owe=recipient_id in owed,
                # The clue is public from the moment it is given; before that there is none.
                clue=new.round.clue if new.phase is not Phase.STORYTELLING else None,
                deadline=deadline,
                **common,
            )
        )
    return events


def derive_for_members(
    old: GameState | None, new: GameState, *, occurred_at: str, deadline: str | None = None
) -> list[Event]:
    """`derive_events` for everyone who was or is a member: what the Streams consumer enqueues per change."""
    members = dict.fromkeys([*(old.player_ids if old is not None else []), *new.player_ids])
    return [
        event
        for member in members
        for event in derive_events(old, new, member, occurred_at=occurred_at, deadline=deadline)
    ]


def reminder_event(
    state: GameState, recipient_id: str, *, deadline: str, occurred_at: str, point: str = ""
) -> Reminder | None:
    """A reminder for a player the game waits on (the never-stall sweep sends it); None if it does not.

    `point` names which of the reminders before one deadline this is (half time, last call...).
    """
    if state.round is None or state.phase not in _MOVE_OF_PHASE or recipient_id not in waiting_for(state):
        return None
    return Reminder(
        id=event_id(state.game_id, state.version, "reminder", recipient_id, f"{deadline}/{point}"),
        game_id=state.game_id,
        game_version=state.version,
        recipient_id=recipient_id,
        occurred_at=occurred_at,
        round_number=state.round.number,
        move=_MOVE_OF_PHASE[state.phase],
        deadline=deadline,
    )


def timeout_event(
    before: GameState, timed_out_id: str, recipient_id: str, *, version: int, occurred_at: str
) -> Timeout | None:
    """`timed_out_id` missed the move `before` owed them; told to every member (`version` is the new one)."""
    if before.round is None or before.phase not in _MOVE_OF_PHASE or before.player(recipient_id) is None:
        return None
    return Timeout(
        id=event_id(before.game_id, version, "timeout", recipient_id, timed_out_id),
        game_id=before.game_id,
        game_version=version,
        recipient_id=recipient_id,
        occurred_at=occurred_at,
        player_id=timed_out_id,
        round_number=before.round.number,
        move=_MOVE_OF_PHASE[before.phase],
    )


def rematch_events(finished: GameState, lobby: GameState, *, occurred_at: str) -> list[RematchOpened]:
    """Every player of `finished` learns its rematch `lobby` opened: an event of the finished game, at
    its last version (the rematch lobby is another game, which only its opener is in yet)."""
    host = lobby.player(lobby.host_id)
    return [
        RematchOpened(
            id=event_id(finished.game_id, finished.version, "rematch.opened", recipient_id, lobby.game_id),
            game_id=finished.game_id,
            game_version=finished.version,
            recipient_id=recipient_id,
            occurred_at=occurred_at,
            rematch_game_id=lobby.game_id,
            opener_id=lobby.host_id,
            opener_name="" if host is None else host.name,
        )
        for recipient_id in finished.player_ids
    ]


def message_events(
    state: GameState,
    *,
    message_id: str,
    author_id: str,
    author_name: str,
    text: str,
    round_number: int,
    occurred_at: str,
) -> list[MessagePosted]:
    """`message.posted` for every seated player but its author, at the game's version and phase."""
    return [
        MessagePosted(
            id=event_id(state.game_id, state.version, "message.posted", recipient_id, message_id),
            game_id=state.game_id,
            game_version=state.version,
            recipient_id=recipient_id,
            occurred_at=occurred_at,
            message_id=message_id,
            author_id=author_id,
            author_name=author_name,
            text=text,
            round_number=round_number,
            phase=state.phase,
        )
        for recipient_id in state.player_ids
        if recipient_id != author_id
    ]


def json_schema() -> str:
    """The events' JSON Schema as committed in docs/ (`make openapi` refreshes it; a test checks drift)."""
    import json

    schema = EVENT_ADAPTER.json_schema()
    schema["title"] = "Dixit by mail webhook event"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(json_schema(), end="")
