"""The public JSON contract of the game routes: creating, joining and playing a game, and reading it back.

Every property carries a description and an example (a test walks openapi.json for both). One meaning per
field name across every response; times are ISO-8601 UTC strings (`deadline`s end in `Z`). Players' and
decks' bodies are app.players.schemas and app.decks.schemas; what they share is app.core.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, Strict

from app.core.examples import CARD_ALT, CARD_ID, DEADLINE, GAME_ID, IMAGE_URL, OTHER_ID, PLAYER_ID, STAMP
from app.core.records import Visibility
from app.core.request_fields import TEXT_RULE, text_schema, whole_number
from app.core.schema_base import Request, Schema, doc
from app.decks.card_schema import CUSTOM_DECK_ID_PATTERN, Card

# The move bodies and the settings every view shows have modules of their own, so that a move or a view
# imports only them (issue 36); this module still holds the whole contract of the game routes.
from app.games.move_bodies import ChooseCards as ChooseCards
from app.games.move_bodies import GiveClue as GiveClue
from app.games.move_bodies import JoinGame as JoinGame
from app.games.move_bodies import NamePlayer as NamePlayer
from app.games.move_bodies import TakeVacation as TakeVacation
from app.games.settings_out import SettingsOut as SettingsOut
from dixit.cards import OFFICIAL_DECKS
from dixit.limits import (
    DEFAULT_MOVE_TIMEOUT_HOURS,
    MAX_DECKS,
    MAX_MOVE_TIMEOUT_HOURS,
    MAX_NAME_LENGTH,
    MAX_VACATION_DAYS,
    MIN_MOVE_TIMEOUT_HOURS,
)
from dixit.settings import (
    DEFAULT_TABLE_TALK,
    DEFAULT_TIMEOUT_POLICY,
    MAX_TARGET_SCORE,
    MIN_PLAYERS,
    Ruleset,
    TableTalk,
    TimeoutPolicy,
)
from dixit.state import EndNote, EndReason, Phase

# A JSON integer within its range: never a string or a boolean, a float only when it is a whole number.
# The range comes first so that it lands in the JSON schema as minimum and maximum.
SeatsClassic = Annotated[
    int, Field(ge=MIN_PLAYERS, le=Ruleset.CLASSIC.max_players), Strict(), BeforeValidator(whole_number)
]
SeatsOdyssey = Annotated[
    int, Field(ge=MIN_PLAYERS, le=Ruleset.ODYSSEY.max_players), Strict(), BeforeValidator(whole_number)
]
TargetScore = Annotated[int, Field(ge=1, le=MAX_TARGET_SCORE), Strict(), BeforeValidator(whole_number)]
VacationDays = Annotated[int, Field(ge=0, le=MAX_VACATION_DAYS), Strict(), BeforeValidator(whole_number)]
TimeoutHours = Annotated[
    int, Field(ge=MIN_MOVE_TIMEOUT_HOURS, le=MAX_MOVE_TIMEOUT_HOURS), Strict(), BeforeValidator(whole_number)
]

# An official deck, or a custom deck's id: the schema lists the one and states the other's form, and the
# rules refuse anything else (unknown_deck).
DeckName = Annotated[
    str,
    Field(
        json_schema_extra={"anyOf": [{"enum": sorted(OFFICIAL_DECKS)}, {"pattern": CUSTOM_DECK_ID_PATTERN}]}
    ),
]


class _GameSettings(Request):
    decks: list[DeckName] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_DECKS,
        json_schema_extra={"uniqueItems": True},
        examples=[["base", "daydreams"]],
        description="Decks to deal from, each once: official decks by name, your own ready decks by id "
        "(default: base)",
    )
    target_score: TargetScore | None = Field(
        default=None, examples=[30], description="The score that ends the game (default: 30)"
    )
    move_timeout_hours: TimeoutHours = Field(
        default=DEFAULT_MOVE_TIMEOUT_HOURS,
        examples=[48],
        description="How long each owed move may take before the timeout policy applies",
    )
    # Lax for the enums: JSON has none, so the string is what a client sends.
    visibility: Visibility = Field(
        default=Visibility.PUBLIC,
        strict=False,
        examples=["public"],
        description="public: listed and open to anyone; private: an invite_code is needed",
    )
    timeout_policy: TimeoutPolicy = Field(
        default=DEFAULT_TIMEOUT_POLICY,
        strict=False,
        examples=["autoplay"],
        description="`autoplay` (the default): at a missed deadline a random legal card or vote is played "
        "for the silent player, which scores nothing, and a silent storyteller passes the role; `skip`: the "
        "game moves on without the silent one; `wait`: remind only",
    )
    table_talk: TableTalk = Field(
        default=DEFAULT_TABLE_TALK,
        strict=False,
        examples=["between_rounds"],
        description="When the table may talk (`/games/{game_id}/messages`): `between_rounds` (the default) "
        "in the lobby, from each reveal until the next clue and after the end, never while cards are chosen "
        "and votes cast, when a word could give a card away; `always`; or `off`",
    )
    vacation_days: VacationDays | None = Field(
        default=None,
        examples=[7],
        description="Days of vacation each player may declare over the game (default: 7)",
    )
    title: (
        Annotated[str, Field(max_length=MAX_NAME_LENGTH, json_schema_extra=text_schema(blank_allowed=True))]
        | None
    ) = Field(
        default=None,
        examples=["Friday family game"],
        description="What the players see this game called in their games list (default: none, the players' "
        "names stand for it; a title that shows nothing is none). Held to a player name's limits "
        f"(title_too_long). {TEXT_RULE}",
    )


class CreateClassicGame(_GameSettings):
    """Classic rules (the default): 3 to 6 seats."""

    rules: Literal["classic"] = doc(
        "classic (3 to 6 players) or odyssey (up to 12)", "classic", default="classic"
    )
    max_players: SeatsClassic | None = Field(
        default=None,
        examples=[6],
        description="Seats (default: the ruleset's maximum)",
    )


class CreateOdysseyGame(_GameSettings):
    """Odyssey rules: 3 to 12 seats."""

    rules: Literal["odyssey"] = doc("classic (3 to 6 players) or odyssey (up to 12)", "odyssey")
    max_players: SeatsOdyssey | None = Field(
        default=None,
        examples=[12],
        description="Seats (default: the ruleset's maximum)",
    )


# The seats a game may have depend on its rules: one schema per ruleset says so exactly.
CreateGame = CreateClassicGame | CreateOdysseyGame


class SeatOut(Schema):
    player_id: str = doc("The seated player's id", PLAYER_ID)
    name: str = doc("The seated player's name", "Ada")
    score: int = doc("Points so far", 7)
    hand_size: int = doc("How many cards they hold (never which)", 6)
    away: bool = doc("Timed out twice in a row: skipped at once until they act again", False)
    vacation_until: str | None = doc(
        "The end of their current or last vacation (ISO-8601 UTC): on vacation until then while it is in the "
        "future; null if they never took one",
        None,
    )
    vacation_days_left: int = doc("Vacation days they may still declare in this game", 7)
    offered: bool = doc("The host offered this seat: a newcomer may take it through the invite link", False)
    leaving: bool = doc("The host removed this player: the seat leaves the table when the round ends", False)
    timed_out: bool = doc(
        "Their last owed move timed out and they have not moved since: the host may offer or remove the seat",
        False,
        default=False,
    )
    departed: bool = doc(
        "Their account was deleted while the game was in play: the seat never answers again, its cards and "
        "votes are played for it at each deadline, and the host may offer or remove it at once (a seat "
        "deleted after the game ended is only renamed)",
        False,
        default=False,
    )


class WaitingOut(Schema):
    player_id: str = doc("A player the game waits on", OTHER_ID)
    name: str = doc("Their name", "Bob")
    move: Literal["clue", "submit", "vote"] = doc("The move they owe", "submit")
    deadline: str = doc("When that move times out (ISO-8601 UTC)", DEADLINE)


FAIR = "2026-06-01T12:00:00Z"


class RoundWaitingOut(WaitingOut):
    nudge_after: str = doc(
        "From when a nudge by hand about this move is fair: a quarter of its time in (ISO-8601 UTC)", FAIR
    )


class RoundOut(Schema):
    number: int = doc("Round number, from 1", 3)
    storyteller_id: str = doc("Who tells this round", PLAYER_ID)
    storyteller_name: str = doc("The storyteller's name", "Ada")
    clue: str | None = doc("The clue; null until given", "the last door")
    table: list[Card] = doc(
        "Empty until voting; then the fixed, shuffled order", [{"card_id": CARD_ID, "alt": CARD_ALT}]
    )
    waiting_for: list[str] = doc("Ids of the players the game waits on, in seat order", [OTHER_ID])
    waiting: list[RoundWaitingOut] = doc(
        "The players the game waits on, named, with the move each owes (never which cards)",
        [{"player_id": OTHER_ID, "name": "Bob", "move": "submit", "deadline": DEADLINE, "nudge_after": FAIR}],
    )
    deadline: str | None = doc("When the owed moves of this phase time out; null when none is owed", DEADLINE)
    cards_to_submit: int = doc("How many cards each non-storyteller submits this round", 1)
    votes_allowed: list[int] = doc(
        "How many votes a voter may cast: [1], or [1, 2] in large Odyssey games", [1]
    )
    sitting_out: list[str] = doc("Ids of players sitting this round out (timed out submitting)", [])
    autoplayed: list[str] = doc(
        "Ids of players whose card(s) the timeout played for them (autoplay); which card stays secret", []
    )
    autovoted: list[str] = doc("Ids of players whose vote the timeout cast for them (autoplay)", [])
    extended: list[str] = doc("Ids of players whose owed move was given 24 more hours", [])


class OwesOut(Schema):
    move: Literal["clue", "submit", "vote"] = doc("The move you owe", "vote")
    count: int | None = doc("The number of cards it takes; null when you may choose (see counts)", 1)
    counts: list[int] = doc("Every card count the move accepts", [1])
    deadline: str = doc("When the move times out (ISO-8601 UTC)", DEADLINE)


class YouOut(Schema):
    player_id: str = doc("Your player id", PLAYER_ID)
    hand: list[Card] = doc(
        "Your hand (only you see it)", [{"card_id": CARD_ID, "image_url": IMAGE_URL, "alt": CARD_ALT}]
    )
    submitted: list[str] = doc("Card ids you played this round", ["base-042"])
    votes: list[str] = doc("Card ids you voted for this round", [])
    owes: OwesOut | None = doc(
        "The move the game waits on from you (away: the card the round would still take); null when none",
        {"move": "vote", "count": 1, "counts": [1], "deadline": DEADLINE},
    )
    away: bool = doc("You timed out twice in a row; any move of yours brings you back", False)


class VoterOut(Schema):
    player_id: str = doc("Who voted for this card", OTHER_ID)
    name: str = doc("Their name", "Bob")


class CardResultOut(Schema):
    card_id: str = doc("A card on the revealed table", CARD_ID)
    image_url: str | None = doc("A short-lived link to its image; null when it has none", IMAGE_URL)
    alt: str = doc("What the card shows (see Card.alt)", CARD_ALT)
    owner_id: str = doc("Who played it", PLAYER_ID)
    owner_name: str = doc("Their name", "Ada")
    voter_ids: list[str] = doc("Who voted for it", [OTHER_ID])
    voters: list[VoterOut] = doc("Who voted for it, named", [{"player_id": OTHER_ID, "name": "Bob"}])
    autoplayed: bool = doc("Played by the timeout for its silent owner: it earned them nothing", False)


class RoundResultOut(Schema):
    number: int = doc("Round number, from 1", 3)
    storyteller_id: str = doc("Who told", PLAYER_ID)
    storyteller_name: str = doc("The storyteller's name", "Ada")
    clue: str = doc("The clue", "the last door")
    storyteller_card: str = doc("The storyteller's card", CARD_ID)
    cards: list[CardResultOut] = doc(
        "Every card on the table, who played it and who voted for it",
        [
            {
                "card_id": CARD_ID,
                "alt": CARD_ALT,
                "owner_id": PLAYER_ID,
                "owner_name": "Ada",
                "voter_ids": [],
                "voters": [],
            }
        ],
    )
    points: dict[str, int] = doc("Points scored this round, by player id", {PLAYER_ID: 3, OTHER_ID: 0})
    autovoted: list[str] = doc(
        "Ids of voters whose vote the timeout cast (shown in voter_ids, never scored)", []
    )


class GameOut(Schema):
    game_id: str = doc("The game's id", GAME_ID)
    version: int = doc("Bumped by every change; the ETag carries it", 12)
    phase: Phase = doc("Where the game is", "voting")
    settings: SettingsOut = doc(
        "The rules it is played by",
        {"rules": "classic", "decks": ["base"], "max_players": 6, "target_score": 30,
         "move_timeout_hours": 48, "timeout_policy": "autoplay", "vacation_days": 7,
         "table_talk": "between_rounds"},
    )  # fmt: skip
    visibility: Visibility = doc("public or private", "public")
    host_id: str = doc("Who created it (starts it)", PLAYER_ID)
    invite_code: str | None = doc("Shown to members only", "Zx8_q1")
    players: list[SeatOut] = doc(
        "The seats, in order",
        [{"player_id": PLAYER_ID, "name": "Ada", "score": 7, "hand_size": 6, "away": False}],
    )
    your_turn: bool = doc("The game waits on you (or, host, your full lobby can start)", True)
    round: RoundOut | None = doc("The round in play; null in the lobby and at the end", None)
    you: YouOut | None = doc("Your hand and what you owe; null for a spectator", None)
    last_round: RoundResultOut | None = doc("The reveal of the last finished round; null before one", None)
    winners: list[str] = doc("Ids of the winners once finished", [])
    end_reason: EndReason | None = doc("Why the game ended; null until it has", None)
    end_note: EndNote | None = doc(
        "Why an abandoned game was: stopped_answering (fewer than two players still answered, and no "
        "offered seat was taken for a whole timeout) or no_round_scored; null otherwise",
        None,
    )
    created_at: str = doc("When it was created (ISO-8601 UTC)", STAMP)
    updated_at: str = doc("When it last changed (ISO-8601 UTC)", STAMP)
    rematch_game_id: str | None = doc(
        "Once finished, shown to its players: the rematch lobby, which POST /games/{id}/rematch opens or "
        "joins (the same one for every player); null otherwise",
        None,
    )


class OpenGameOut(Schema):
    game_id: str = doc("The game's id", GAME_ID)
    title: str | None = doc("The title the host gave the game; null if none", None, default=None)
    rules: str = doc("classic or odyssey", "classic")
    host_id: str = doc("Who created it", PLAYER_ID)
    player_count: int = doc("Seats taken", 2)
    player_names: list[str] = doc("Who is seated, in order", ["Ada", "Bob"])
    max_players: int = doc("Seats", 6)
    created_at: str = doc("When it was created (ISO-8601 UTC)", STAMP)


class OpenGames(Schema):
    games: list[OpenGameOut] = doc("Public lobbies with a free seat, newest first", [])


class PlayerName(Schema):
    player_id: str = doc("A seated player's id", PLAYER_ID)
    name: str = doc("Their name", "Ada")


class InboxGame(Schema):
    game_id: str = doc("The game's id", GAME_ID)
    phase: Phase = doc("Where the game is", "submitting")
    your_turn: bool = doc("The game waits on you (or, host, your full lobby can start)", True)
    deadline: str | None = doc("When your owed move times out (ISO-8601 UTC); null if you owe none", DEADLINE)
    round_number: int | None = doc("The round in play; null in the lobby", 3)
    waiting_for: list[str] = doc("Ids of the players the game waits on", [OTHER_ID])
    waiting: list[WaitingOut] = doc(
        "The players the game waits on, named",
        [{"player_id": OTHER_ID, "name": "Bob", "move": "submit", "deadline": DEADLINE}],
    )
    player_count: int = doc("Seats taken", 4)
    end_reason: EndReason | None = doc("Why the game ended; null until it has", None)
    updated_at: str = doc("When this entry last changed (ISO-8601 UTC)", STAMP)
    version: int = doc("The game version this entry shows (GET /games/{id} is at least there)", 12)
    title: str | None = doc("The title the host gave the game; null if none", None, default=None)
    host_id: str | None = doc("Who created the game", PLAYER_ID, default=None)
    seated: list[PlayerName] = doc(
        "Who is seated, in seat order", [{"player_id": PLAYER_ID, "name": "Ada"}], default_factory=list
    )
    storyteller_id: str | None = doc("The round's storyteller; null outside a round", None, default=None)
    clue: str | None = doc("The round's clue once told; null before (or outside a round)", None, default=None)
    winners: list[str] = doc("Ids of the winners once finished", [], default_factory=list)
    rematch_game_id: str | None = doc(
        "Once finished: its rematch lobby's id, whether opened yet or not (its preview says who opened it)",
        None,
        default=None,
    )


class GamePreview(Schema):
    """What an invitee may read before joining: no hand, no card, no invite code."""

    game_id: str = doc("The game's id", GAME_ID)
    title: str | None = doc("The title the host gave the game; null if none", None)
    phase: Phase = doc("Where the game is: only a lobby can be joined", "lobby")
    host_id: str = doc("Who created it", PLAYER_ID)
    host_name: str = doc("The host's name", "Ada")
    seated: list[PlayerName] = doc("Who is seated, in seat order", [{"player_id": PLAYER_ID, "name": "Ada"}])
    settings: SettingsOut = doc(
        "The rules it is played by",
        {"rules": "classic", "decks": ["base"], "max_players": 6, "target_score": 30,
         "move_timeout_hours": 48, "timeout_policy": "skip"},
    )  # fmt: skip
    visibility: Visibility = doc("public or private", "private")
    free_seats: int = doc("Seats still free", 4)
    joinable: bool = doc(
        "Whether you can join it now (a lobby with a free seat, or a started game with an offered seat, that "
        "you do not sit in)",
        True,
    )
    offered_seats: int = doc(
        "Seats of a started game the host offered to a newcomer: joining takes the first", 0, default=0
    )
    you_are_in: bool = doc("Whether you are seated in it already", False)


class RematchOut(Schema):
    """A finished game's rematch, as its players may read it: whether it was opened yet, and its lobby."""

    rematch_game_id: str = doc("The rematch lobby's id, the same for every player (open or not yet)", GAME_ID)
    lobby: GamePreview | None = doc(
        "The rematch lobby's join page (who opened it, who is in); null until a player opens it", None
    )


class Inbox(Schema):
    games: list[InboxGame] = doc("Active games, most urgent first; or finished ones, newest first", [])
    next_cursor: str | None = doc(
        "With ?status=finished: pass as ?cursor= for the next page; null at the end", None
    )


class Rounds(Schema):
    rounds: list[RoundResultOut] = doc("Every finished round, oldest first", [])
