"""The whole state of one game, and its compact, lossless JSON form (one DynamoDB item).

The draw pile is never stored: the deck order is a pure function of the seed and the reshuffle
generation, so the state keeps only a position into it. The discard is whatever is neither in the pile,
in a hand nor on the table. In JSON, players are named by seat and cards by their index in the game's
card list, which keeps the item small whatever the decks.
"""

from __future__ import annotations

import base64
import json
import random
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

from dixit.quiet_hours import SeatQuiet, shift_deadline
from dixit.settings import Settings

# A player who let this many owed moves in a row time out is away until they act again.
AWAY_AFTER = 2
# Under `autoplay`, a player who let this many owed moves in a row be played for them no longer answers.
# Far above AWAY_AFTER: for a player who answers late a third of the time, ten given moves in a row are
# all late with a chance of 1 in 59,049, so a table that still plays is not taken for a deserted one.
STOPPED_AFTER = 10


class EndReason(StrEnum):
    """Why a finished game ended."""

    TARGET_SCORE = "target_score"
    DECK_EXHAUSTED = "deck_exhausted"
    EVERYONE_LEFT = "everyone_left"
    # `skip`/`wait`: no round was scored during a full rotation of storytellers; `autoplay`: fewer than
    # two players still answer (see EndNote).
    ABANDONED = "abandoned"


class EndNote(StrEnum):
    """Why an abandoned game was abandoned, for the reveal."""

    NO_ROUND_SCORED = "no_round_scored"
    STOPPED_ANSWERING = "stopped_answering"


class Phase(StrEnum):
    LOBBY = "lobby"
    STORYTELLING = "storytelling"
    SUBMITTING = "submitting"
    VOTING = "voting"
    FINISHED = "finished"


@dataclass(slots=True)
class Player:
    player_id: str
    name: str
    score: int = 0
    # Owed moves in a row that timed out; any move of the player's resets it.
    missed: int = 0
    # The current or last vacation (epoch seconds; 0, 0: none), and the days declared over the game.
    vacation_start: int = 0
    vacation_until: int = 0
    vacation_days_used: int = 0

    @property
    def away(self) -> bool:
        return self.missed >= AWAY_AFTER

    @property
    def answering(self) -> bool:
        return self.missed < STOPPED_AFTER

    def on_vacation(self, now: int) -> bool:
        return self.vacation_start <= now < self.vacation_until

    def copy(self) -> Player:
        return Player(
            self.player_id,
            self.name,
            self.score,
            self.missed,
            self.vacation_start,
            self.vacation_until,
            self.vacation_days_used,
        )

    def to_row(self) -> list[Any]:
        row: list[Any] = [self.player_id, self.name, self.score, self.missed]
        if self.vacation_until or self.vacation_days_used:
            row.append([self.vacation_start, self.vacation_until, self.vacation_days_used])
        return row

    @classmethod
    def from_row(cls, row: list[Any]) -> Player:
        start, until, used = row[4] if len(row) > 4 else (0, 0, 0)
        return cls(str(row[0]), str(row[1]), int(row[2]), int(row[3]), int(start), int(until), int(used))


@dataclass(slots=True)
class Round:
    number: int
    storyteller_id: str
    # When the owed moves of the current phase started being owed (epoch seconds, from the caller).
    since: int = 0
    clue: str | None = None
    storyteller_card: str | None = None
    # player id -> the cards they put forward, in the order they gave them; the storyteller is not here.
    submissions: dict[str, list[str]] = field(default_factory=dict)
    # The shuffled table, fixed once every submission is in (empty before voting).
    table: list[str] = field(default_factory=list)
    votes: dict[str, list[str]] = field(default_factory=dict)
    # Players out of this round: silent at the submitting deadline, or away when it began.
    sitting_out: list[str] = field(default_factory=list)
    # Under `autoplay`: whose card(s), and whose vote, the timeout played for them.
    autoplayed: list[str] = field(default_factory=list)
    autovoted: list[str] = field(default_factory=list)
    # Extra seconds an extension gave a player for the owed move of this phase (once per owed move).
    extended: dict[str, int] = field(default_factory=dict)

    def owner_of(self, card_id: str) -> str | None:
        if card_id == self.storyteller_card:
            return self.storyteller_id
        for player_id, cards in self.submissions.items():
            if card_id in cards:
                return player_id
        return None

    def cards_in_play(self) -> list[str]:
        played = [self.storyteller_card] if self.storyteller_card is not None else []
        return [*played, *(c for cards in self.submissions.values() for c in cards)]


@dataclass(frozen=True, slots=True)
class CardResult:
    card_id: str
    owner_id: str
    voter_ids: tuple[str, ...]
    # Played by the timeout for a silent owner (`autoplay`): it earns its owner nothing.
    autoplayed: bool = False


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The full reveal of a finished round: what everybody may see once the round is scored."""

    number: int
    storyteller_id: str
    clue: str
    storyteller_card: str
    cards: tuple[CardResult, ...]
    points: dict[str, int]
    # Voters whose vote the timeout cast for them (`autoplay`): shown, never scored.
    autovoted: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "storyteller_id": self.storyteller_id,
            "clue": self.clue,
            "storyteller_card": self.storyteller_card,
            "cards": [
                {
                    "card_id": c.card_id,
                    "owner_id": c.owner_id,
                    "voter_ids": list(c.voter_ids),
                    **({"autoplayed": True} if c.autoplayed else {}),
                }
                for c in self.cards
            ],
            "points": dict(self.points),
        }
        if self.autovoted:
            out["autovoted"] = list(self.autovoted)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        return cls(
            number=data["number"],
            storyteller_id=data["storyteller_id"],
            clue=data["clue"],
            storyteller_card=data["storyteller_card"],
            cards=tuple(
                CardResult(
                    c["card_id"], c["owner_id"], tuple(c["voter_ids"]), bool(c.get("autoplayed", False))
                )
                for c in data["cards"]
            ),
            points={k: int(v) for k, v in data["points"].items()},
            autovoted=tuple(data.get("autovoted", ())),
        )


@lru_cache(maxsize=64)
def _catalogue(settings: Settings) -> tuple[tuple[str, ...], dict[str, int]]:
    cards = tuple(settings.card_ids())
    return cards, {card: i for i, card in enumerate(cards)}


@lru_cache(maxsize=256)
def deck_order(
    seed: int, settings: Settings, generation: int, reshuffled: frozenset[str] | None
) -> tuple[str, ...]:
    """The draw order of one deck generation: every card at first, then each Odyssey reshuffle of the
    discard. A pure function of its arguments, each generation with its own RNG stream."""
    cards, index = _catalogue(settings)
    order = list(cards) if reshuffled is None else sorted(reshuffled, key=index.__getitem__)
    random.Random(f"{seed}:deck:{generation}").shuffle(order)
    return tuple(order)


@dataclass(slots=True)
class GameState:
    game_id: str
    settings: Settings
    seed: int
    host_id: str
    players: list[Player]
    phase: Phase = Phase.LOBBY
    version: int = 0
    # How many shuffles the game has made besides the deck's; with `seed` it names the next RNG stream.
    draws: int = 0
    # The deck: how many reshuffles so far, how far into the current order the draws have gone, and
    # which cards the current reshuffle took (None: the first order, every card of the game).
    deck_generation: int = 0
    deck_position: int = 0
    reshuffled: frozenset[str] | None = None
    hands: dict[str, list[str]] = field(default_factory=dict)
    round: Round | None = None
    last_round: RoundResult | None = None
    winners: list[str] = field(default_factory=list)
    end_reason: EndReason | None = None
    # Storyteller turns since a round was last scored; a full rotation of them abandons the game.
    idle_turns: int = 0
    end_note: EndNote | None = None
    # Seats the host offered to a newcomer (player id -> when): a newcomer takes one with its hand and
    # score, and the game is not abandoned while an offer is younger than one timeout.
    offered: dict[str, int] = field(default_factory=dict)
    # Seats' quiet hours (copied from their preferences): deadlines owed by them avoid their nights.
    quiet: dict[str, SeatQuiet] = field(default_factory=dict)
    # Seats the host removed: they leave the table when the current round ends (autoplayed meanwhile).
    leaving: list[str] = field(default_factory=list)

    def next_rng(self) -> random.Random:
        """A fresh RNG for the next shuffle; deriving it from (seed, draws) keeps the state small."""
        rng = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return rng

    def deck(self) -> tuple[str, ...]:
        return deck_order(self.seed, self.settings, self.deck_generation, self.reshuffled)

    @property
    def pile(self) -> list[str]:
        """The cards still to draw, in draw order."""
        return list(self.deck()[self.deck_position :]) if self.phase is not Phase.LOBBY else []

    @property
    def discard(self) -> list[str]:
        """Cards played in earlier rounds and not yet reshuffled, in catalogue order."""
        if self.phase is Phase.LOBBY:
            return []
        elsewhere = set(self.deck()[self.deck_position :])
        elsewhere.update(c for hand in self.hands.values() for c in hand)
        if self.round is not None:
            elsewhere.update(self.round.cards_in_play())
        return [c for c in _catalogue(self.settings)[0] if c not in elsewhere]

    def draw(self, count: int) -> list[str]:
        """Take up to `count` cards from the top of the pile."""
        taken = list(self.deck()[self.deck_position : self.deck_position + count])
        self.deck_position += len(taken)
        return taken

    def reshuffle_discard(self) -> None:
        """Odyssey: the discard becomes the next pile, in a fresh order."""
        self.reshuffled = frozenset(self.discard)
        self.deck_generation += 1
        self.deck_position = 0

    def player(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.player_id == player_id), None)

    def seat_of(self, player_id: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.player_id == player_id)

    @property
    def player_ids(self) -> list[str]:
        return [p.player_id for p in self.players]

    def awaited(self) -> tuple[str, ...]:
        """Whose move the game is waiting on, in seat order."""
        rnd = self.round
        if rnd is None or self.phase not in (Phase.STORYTELLING, Phase.SUBMITTING, Phase.VOTING):
            return ()
        if self.phase is Phase.STORYTELLING:
            return (rnd.storyteller_id,)
        if self.phase is Phase.SUBMITTING:
            done = set(rnd.submissions) | set(rnd.sitting_out) | {rnd.storyteller_id}
            return tuple(pid for pid in self.player_ids if pid not in done)
        return tuple(
            pid
            for pid in self.player_ids
            if pid in rnd.submissions and pid not in rnd.votes and pid not in rnd.sitting_out
        )

    def deadline(self) -> int | None:
        """When the first owed move of the current phase times out, if anything is owed."""
        owed = self.awaited()
        if self.round is None or not owed:
            return None
        return min(self.deadline_of(pid) for pid in owed)

    def deadline_of(self, player_id: str) -> int:
        """When `player_id`'s move in the current phase times out: the phase's timeout, plus any
        extension, plus the part of a vacation that overlaps the phase (their clock stops while away),
        moved out of their quiet hours (dixit.quiet_hours), so that nobody times out asleep."""
        rnd = self.round
        assert rnd is not None
        timeout = self.settings.move_timeout_seconds
        at = rnd.since + timeout + rnd.extended.get(player_id, 0)
        player = self.player(player_id)
        if player is not None and player.vacation_until > rnd.since:
            at += player.vacation_until - max(rnd.since, player.vacation_start)
        quiet = self.quiet.get(player_id)
        return at if quiet is None else shift_deadline(at, [quiet], timeout)

    # --- JSON -------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        cards, index = _catalogue(self.settings)
        seat = {pid: i for i, pid in enumerate(self.player_ids)}

        def enc(card_ids: list[str]) -> list[int]:
            return [index[c] for c in card_ids]

        def by_seat(mapping: dict[str, list[str]]) -> list[list[int]]:
            return [enc(mapping.get(pid, [])) for pid in self.player_ids]

        rnd, last = self.round, self.last_round
        # What is almost always so is left out (from_dict puts it back): every move rewrites this item.
        out: dict[str, Any] = {
            "game_id": self.game_id,
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "players": [p.to_row() for p in self.players],
            "phase": self.phase.value,
            "version": self.version,
            "draws": self.draws,
            "deck": [self.deck_generation, self.deck_position, _bitmap(self.reshuffled, cards)],
            "hands": by_seat(self.hands) if self.hands else [],
            "round": None
            if rnd is None
            else {
                "number": rnd.number,
                "storyteller": seat[rnd.storyteller_id],
                "since": rnd.since,
                "clue": rnd.clue,
                "card": None if rnd.storyteller_card is None else index[rnd.storyteller_card],
                "submissions": by_seat(rnd.submissions),
                "table": enc(rnd.table),
                "votes": by_seat(rnd.votes),
                **({"out": [seat[pid] for pid in rnd.sitting_out]} if rnd.sitting_out else {}),
                **({"auto": [seat[pid] for pid in rnd.autoplayed]} if rnd.autoplayed else {}),
                **({"autov": [seat[pid] for pid in rnd.autovoted]} if rnd.autovoted else {}),
                **({"ext": [[seat[p], s] for p, s in rnd.extended.items()]} if rnd.extended else {}),
            },
            "last_round": None
            if last is None
            else {
                "number": last.number,
                "storyteller": seat[last.storyteller_id],
                "clue": last.clue,
                "card": index[last.storyteller_card],
                "table": [index[c.card_id] for c in last.cards],
                # -1: a player who left since (a removed seat), whose votes and points are dropped.
                "owners": [seat.get(c.owner_id, -1) for c in last.cards],
                "votes": [
                    [i for i, c in enumerate(last.cards) if pid in c.voter_ids] for pid in self.player_ids
                ],
                "points": [last.points.get(pid, 0) for pid in self.player_ids],
                **(
                    {"auto": [i for i, c in enumerate(last.cards) if c.autoplayed]}
                    if any(c.autoplayed for c in last.cards)
                    else {}
                ),
                **(
                    {"autov": [seat[pid] for pid in last.autovoted if pid in seat]}
                    if any(pid in seat for pid in last.autovoted)
                    else {}
                ),
            },
        }
        if not self.player_ids or self.host_id != self.player_ids[0]:
            out["host_id"] = self.host_id
        if self.winners:
            out["winners"] = [seat[pid] for pid in self.winners]
        if self.end_reason is not None:
            out["end_reason"] = self.end_reason.value
        if self.idle_turns:
            out["idle_turns"] = self.idle_turns
        if self.end_note is not None:
            out["end_note"] = self.end_note.value
        if self.offered:
            out["offered"] = [[seat[pid], at] for pid, at in self.offered.items()]
        quiet = {pid: q.to_list() for pid, q in self.quiet.items() if pid in seat}
        if quiet:
            out["quiet"] = quiet
        if self.leaving:
            out["leaving"] = [seat[pid] for pid in self.leaving]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        settings = Settings.from_dict(data["settings"])
        cards, _ = _catalogue(settings)
        players = [Player.from_row(row) for row in data["players"]]
        ids = [p.player_id for p in players]

        def dec(indices: list[int]) -> list[str]:
            return [cards[i] for i in indices]

        def by_pid(rows: list[list[int]]) -> dict[str, list[str]]:
            return {pid: dec(row) for pid, row in zip(ids, rows, strict=True) if row}

        generation, position, bitmap = data["deck"]
        rnd, last = data["round"], data["last_round"]
        last_table = [] if last is None else dec(last["table"])
        # Each card's voters in seat order, from each seat's votes: one pass, not one per card.
        voters: list[list[str]] = [[] for _ in last_table]
        for pid, voted in zip(ids, [] if last is None else last["votes"], strict=last is not None):
            for i in voted:
                if not voters[i] or voters[i][-1] != pid:
                    voters[i].append(pid)
        autoplayed = frozenset(() if last is None else last.get("auto", ()))
        return cls(
            game_id=data["game_id"],
            settings=settings,
            seed=int(data["seed"]),
            host_id=data["host_id"] if "host_id" in data else ids[0],
            players=players,
            phase=Phase(data["phase"]),
            version=int(data["version"]),
            draws=int(data["draws"]),
            deck_generation=int(generation),
            deck_position=int(position),
            reshuffled=_from_bitmap(bitmap, cards),
            # Hands are kept even when empty: a seated player always has one.
            hands={pid: dec(row) for pid, row in zip(ids, data["hands"], strict=True)}
            if data["hands"]
            else {},
            round=None
            if rnd is None
            else Round(
                number=int(rnd["number"]),
                storyteller_id=ids[rnd["storyteller"]],
                since=int(rnd["since"]),
                clue=rnd["clue"],
                storyteller_card=None if rnd["card"] is None else cards[rnd["card"]],
                submissions=by_pid(rnd["submissions"]),
                table=dec(rnd["table"]),
                votes=by_pid(rnd["votes"]),
                sitting_out=[ids[s] for s in rnd.get("out", ())],
                autoplayed=[ids[s] for s in rnd.get("auto", ())],
                autovoted=[ids[s] for s in rnd.get("autov", ())],
                extended={ids[s]: int(extra) for s, extra in rnd.get("ext", ())},
            ),
            last_round=None
            if last is None
            else RoundResult(
                number=int(last["number"]),
                storyteller_id=ids[last["storyteller"]],
                clue=last["clue"],
                storyteller_card=cards[last["card"]],
                cards=tuple(
                    CardResult(card, ids[owner] if owner >= 0 else "", tuple(voters[i]), i in autoplayed)
                    for i, (card, owner) in enumerate(zip(last_table, last["owners"], strict=True))
                ),
                points={pid: int(p) for pid, p in zip(ids, last["points"], strict=True)},
                autovoted=tuple(ids[s] for s in last.get("autov", ())),
            ),
            winners=[ids[s] for s in data.get("winners", ())],
            end_reason=None if data.get("end_reason") is None else EndReason(data["end_reason"]),
            idle_turns=int(data.get("idle_turns", 0)),
            end_note=None if data.get("end_note") is None else EndNote(data["end_note"]),
            offered={ids[s]: int(at) for s, at in data.get("offered", ())},
            quiet={pid: SeatQuiet.from_list(q) for pid, q in data.get("quiet", {}).items() if pid in ids},
            leaving=[ids[s] for s in data.get("leaving", ())],
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))

    def copy(self) -> GameState:
        """A copy that shares nothing mutable with self (settings, results and sets are immutable)."""
        # Built field by field: dataclasses.replace costs more than the rest of a move.
        rnd = self.round
        return GameState(
            game_id=self.game_id,
            settings=self.settings,
            seed=self.seed,
            host_id=self.host_id,
            players=[p.copy() for p in self.players],
            phase=self.phase,
            version=self.version,
            draws=self.draws,
            deck_generation=self.deck_generation,
            deck_position=self.deck_position,
            reshuffled=self.reshuffled,
            hands={pid: list(hand) for pid, hand in self.hands.items()},
            round=None
            if rnd is None
            else Round(
                number=rnd.number,
                storyteller_id=rnd.storyteller_id,
                since=rnd.since,
                clue=rnd.clue,
                storyteller_card=rnd.storyteller_card,
                submissions={pid: list(c) for pid, c in rnd.submissions.items()},
                table=list(rnd.table),
                votes={pid: list(c) for pid, c in rnd.votes.items()},
                sitting_out=list(rnd.sitting_out),
                autoplayed=list(rnd.autoplayed),
                autovoted=list(rnd.autovoted),
                extended=dict(rnd.extended),
            ),
            last_round=self.last_round,
            winners=list(self.winners),
            end_reason=self.end_reason,
            idle_turns=self.idle_turns,
            end_note=self.end_note,
            offered=dict(self.offered),
            quiet=dict(self.quiet),  # SeatQuiet is immutable
            leaving=list(self.leaving),
        )


def _bitmap(chosen: frozenset[str] | None, cards: tuple[str, ...]) -> str | None:
    """A set of the game's cards as one bit per card (catalogue order), base64: small for any deck mix."""
    if chosen is None:
        return None
    bits = bytearray((len(cards) + 7) // 8)
    for i, card in enumerate(cards):
        if card in chosen:
            bits[i // 8] |= 1 << (i % 8)
    return base64.b64encode(bytes(bits)).decode("ascii")


def _from_bitmap(text: str | None, cards: tuple[str, ...]) -> frozenset[str] | None:
    if text is None:
        return None
    bits = base64.b64decode(text)
    return frozenset(card for i, card in enumerate(cards) if bits[i // 8] >> (i % 8) & 1)
