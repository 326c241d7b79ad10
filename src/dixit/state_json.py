"""A game's compact, lossless JSON form (one DynamoDB item), read and written by GameState.to_dict and
GameState.from_dict.

Players are named by seat and cards by their index in the game's card list (dixit.deck.catalogue), which
keeps the item small whatever the decks; what is almost always so is left out and put back on reading.
"""

from __future__ import annotations

import base64
from typing import Any

from dixit.deck import catalogue
from dixit.quiet_hours import SeatQuiet
from dixit.results import CardResult, EndNote, EndReason, RoundResult
from dixit.settings import Settings
from dixit.state import GameState
from dixit.state_parts import Phase, Player, Round


def encode(state: GameState) -> dict[str, Any]:
    """The stored form of `state` (what GameState.to_dict returns)."""
    cards, index = catalogue(state.settings)
    ids = state.player_ids
    seat = {pid: i for i, pid in enumerate(ids)}
    rnd, last = state.round, state.last_round
    # What is almost always so is left out (from_dict puts it back): every move rewrites this item.
    out: dict[str, Any] = {
        "game_id": state.game_id,
        "settings": state.settings.to_dict(),
        "seed": state.seed,
        "players": [p.to_row() for p in state.players],
        "phase": state.phase.value,
        "version": state.version,
        "draws": state.draws,
        "deck": [state.deck_generation, state.deck_position, _bitmap(state.reshuffled, cards)],
        "hands": _by_seat(state.hands, ids, index) if state.hands else [],
        "round": None if rnd is None else _encode_round(rnd, ids, seat, index),
        "last_round": None if last is None else _encode_last_round(last, ids, seat, index),
    }
    if not ids or state.host_id != ids[0]:
        out["host_id"] = state.host_id
    if state.winners:
        out["winners"] = [seat[pid] for pid in state.winners]
    if state.end_reason is not None:
        out["end_reason"] = state.end_reason.value
    if state.idle_turns:
        out["idle_turns"] = state.idle_turns
    if state.end_note is not None:
        out["end_note"] = state.end_note.value
    if state.offered:
        out["offered"] = [[seat[pid], at] for pid, at in state.offered.items()]
    quiet = {pid: q.to_list() for pid, q in state.quiet.items() if pid in seat}
    if quiet:
        out["quiet"] = quiet
    if state.leaving:
        out["leaving"] = [seat[pid] for pid in state.leaving]
    if state.departed:
        out["departed"] = [seat[pid] for pid in state.departed]
    if state.newcomers:
        out["newcomers"] = [seat[pid] for pid in state.newcomers]
    return out


def _by_seat(mapping: dict[str, list[str]], ids: list[str], index: dict[str, int]) -> list[list[int]]:
    """Each seat's cards, as catalogue indices, in seat order (an empty list for a seat not in `mapping`)."""
    return [[index[c] for c in mapping.get(pid, ())] for pid in ids]


def _encode_round(rnd: Round, ids: list[str], seat: dict[str, int], index: dict[str, int]) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "storyteller": seat[rnd.storyteller_id],
        "since": rnd.since,
        "clue": rnd.clue,
        "card": None if rnd.storyteller_card is None else index[rnd.storyteller_card],
        "submissions": _by_seat(rnd.submissions, ids, index),
        "table": [index[c] for c in rnd.table],
        "votes": _by_seat(rnd.votes, ids, index),
        **({"out": [seat[pid] for pid in rnd.sitting_out]} if rnd.sitting_out else {}),
        **({"auto": [seat[pid] for pid in rnd.autoplayed]} if rnd.autoplayed else {}),
        **({"autov": [seat[pid] for pid in rnd.autovoted]} if rnd.autovoted else {}),
        **({"ext": [[seat[p], s] for p, s in rnd.extended.items()]} if rnd.extended else {}),
        **({"joined": [seat[pid] for pid in rnd.joined]} if rnd.joined else {}),
    }


def _encode_last_round(
    last: RoundResult, ids: list[str], seat: dict[str, int], index: dict[str, int]
) -> dict[str, Any]:
    return {
        "number": last.number,
        "storyteller": seat[last.storyteller_id],
        "clue": last.clue,
        "card": index[last.storyteller_card],
        "table": [index[c.card_id] for c in last.cards],
        # -1: a player who left since (a removed seat), whose votes and points are dropped.
        "owners": [seat.get(c.owner_id, -1) for c in last.cards],
        "votes": [[i for i, c in enumerate(last.cards) if pid in c.voter_ids] for pid in ids],
        "points": [last.points.get(pid, 0) for pid in ids],
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
    }


def decode(data: dict[str, Any]) -> GameState:
    """The state stored as `data` by `encode` (what GameState.from_dict returns)."""
    settings = Settings.from_dict(data["settings"])
    cards, _ = catalogue(settings)
    players = [Player.from_row(row) for row in data["players"]]
    ids = [p.player_id for p in players]
    generation, position, bitmap = data["deck"]
    rnd, last = data["round"], data["last_round"]
    return GameState(
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
        hands={pid: [cards[i] for i in row] for pid, row in zip(ids, data["hands"], strict=True)}
        if data["hands"]
        else {},
        round=None if rnd is None else _decode_round(rnd, ids, cards),
        last_round=None if last is None else _decode_last_round(last, ids, cards),
        winners=[ids[s] for s in data.get("winners", ())],
        end_reason=None if data.get("end_reason") is None else EndReason(data["end_reason"]),
        idle_turns=int(data.get("idle_turns", 0)),
        end_note=None if data.get("end_note") is None else EndNote(data["end_note"]),
        offered={ids[s]: int(at) for s, at in data.get("offered", ())},
        quiet={pid: SeatQuiet.from_list(q) for pid, q in data.get("quiet", {}).items() if pid in ids},
        leaving=[ids[s] for s in data.get("leaving", ())],
        departed=[ids[s] for s in data.get("departed", ())],
        newcomers=[ids[s] for s in data.get("newcomers", ())],
    )


def _by_player(rows: list[list[int]], ids: list[str], cards: tuple[str, ...]) -> dict[str, list[str]]:
    """`_by_seat` read back: the seats with cards, by player id."""
    return {pid: [cards[i] for i in row] for pid, row in zip(ids, rows, strict=True) if row}


def _decode_round(rnd: dict[str, Any], ids: list[str], cards: tuple[str, ...]) -> Round:
    return Round(
        number=int(rnd["number"]),
        storyteller_id=ids[rnd["storyteller"]],
        since=int(rnd["since"]),
        clue=rnd["clue"],
        storyteller_card=None if rnd["card"] is None else cards[rnd["card"]],
        submissions=_by_player(rnd["submissions"], ids, cards),
        table=[cards[i] for i in rnd["table"]],
        votes=_by_player(rnd["votes"], ids, cards),
        sitting_out=[ids[s] for s in rnd.get("out", ())],
        autoplayed=[ids[s] for s in rnd.get("auto", ())],
        autovoted=[ids[s] for s in rnd.get("autov", ())],
        extended={ids[s]: int(extra) for s, extra in rnd.get("ext", ())},
        joined=[ids[s] for s in rnd.get("joined", ())],
    )


def _decode_last_round(last: dict[str, Any], ids: list[str], cards: tuple[str, ...]) -> RoundResult:
    table = [cards[i] for i in last["table"]]
    # Each card's voters in seat order, from each seat's votes: one pass, not one per card.
    voters: list[list[str]] = [[] for _ in table]
    for pid, voted in zip(ids, last["votes"], strict=True):
        for i in voted:
            if not voters[i] or voters[i][-1] != pid:
                voters[i].append(pid)
    autoplayed = frozenset(last.get("auto", ()))
    return RoundResult(
        number=int(last["number"]),
        storyteller_id=ids[last["storyteller"]],
        clue=last["clue"],
        storyteller_card=cards[last["card"]],
        cards=tuple(
            CardResult(card, ids[owner] if owner >= 0 else "", tuple(voters[i]), i in autoplayed)
            for i, (card, owner) in enumerate(zip(table, last["owners"], strict=True))
        ),
        points={pid: int(p) for pid, p in zip(ids, last["points"], strict=True)},
        autovoted=tuple(ids[s] for s in last.get("autov", ())),
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
