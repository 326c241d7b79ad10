"""Optimistic concurrency: every move is a conditional write on `version`.

Races are made deterministic by handing the use case a stale read: `StaleReads` wraps
`DynamoGameStore.load_game` so that the next read(s) of a game return a snapshot taken earlier, exactly what
a Lambda sees when another invocation's move lands between its read and its write.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from app import bootstrap
from app.aws.dynamodb.games import DynamoGameStore
from app.core.errors import VersionConflict
from app.core.records import GameRecord
from app.core.settings import get_settings
from app.games import play as games
from app.games.ports import GameWrite
from dixit.moves import Submit
from tests.support.aws import TABLE

from ..client import Client
from ..helpers import (
    assert_problem,
    foreign_card,
    give_clue,
    hand,
    lobby,
    rounds,
    started,
    storyteller,
    submit_all,
    view,
)
from ..stream import StreamFeed


class StaleReads:
    """Makes chosen reads of a game return an old snapshot; every other read goes to the table."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.original = DynamoGameStore.load_game
        self.pending: list[GameRecord] = []
        self.loads = 0
        self.before_return: Callable[[], None] | None = None
        stale = self

        def load_game(store: DynamoGameStore, game_id: str) -> GameRecord | None:
            stale.loads += 1
            if stale.pending:
                return stale.pending.pop(0)
            record = stale.original(store, game_id)
            hook, stale.before_return = stale.before_return, None
            if hook is not None:
                hook()  # another invocation's move lands after this read, before this write
            return record

        monkeypatch.setattr(DynamoGameStore, "load_game", load_game)

    def snapshot(self, game_id: str) -> GameRecord:
        record = self.original(DynamoGameStore(TABLE), game_id)
        assert record is not None
        return record

    def serve(self, record: GameRecord, times: int = 1) -> None:
        self.pending += [record] * times


@pytest.fixture
def stale(aws: None, monkeypatch: pytest.MonkeyPatch) -> StaleReads:
    return StaleReads(monkeypatch)


def waiting_for(client: Client, game_id: str) -> list[str]:
    waiting: list[str] = view(client, game_id)["round"]["waiting_for"]
    return waiting


# The store itself


def test_a_write_on_a_stale_version_raises_version_conflict_with_the_current_version(
    players: list[Client], stale: StaleReads
) -> None:
    game_id = lobby(players[:2])
    store = DynamoGameStore(TABLE)
    record = stale.snapshot(game_id)
    assert record.version == 1
    with pytest.raises(VersionConflict) as lost:
        store.save_game(GameWrite(record, expected_version=0))
    assert lost.value.current_version == 1
    store.save_game(GameWrite(replace(record), expected_version=1))  # the right version goes through


def test_a_lost_transactional_write_leaves_no_membership_behind(
    players: list[Client], stale: StaleReads, table: Any
) -> None:
    game_id = lobby(players[:2])
    record = stale.snapshot(game_id)
    with pytest.raises(VersionConflict) as lost:
        DynamoGameStore(TABLE).save_game(GameWrite(record, expected_version=0, joined=[players[5].player_id]))
    assert lost.value.current_version == 1
    key = {"pk": f"PLAYER#{players[5].player_id}", "sk": f"GAME#{game_id}"}
    assert "Item" not in table.get_item(Key=key)


# Through the handler: the loser is retried against the fresher state


def test_two_submissions_built_on_the_same_version_both_land_after_one_retry(
    players: list[Client], stale: StaleReads
) -> None:
    table = players[:4]
    game_id = started(table)
    teller = give_clue(table, game_id)
    first, second = [c for c in table if c is not teller][:2]
    before = stale.snapshot(game_id)

    assert first.post(f"/games/{game_id}/submissions", {"card_ids": hand(first, game_id)[:1]}).status == 200
    card = hand(second, game_id)[0]
    stale.serve(before)  # second read the game before first's submission landed
    stale.loads = 0
    reply = second.post(f"/games/{game_id}/submissions", {"card_ids": [card]})

    assert reply.status == 200, reply.raw
    assert stale.loads == 2  # one lost write, one retry
    assert reply.body["version"] == before.version + 2
    assert reply.body["you"]["submitted"] == [card]
    remaining = [c.player_id for c in table if c not in (teller, first, second)]
    assert waiting_for(teller, game_id) == remaining


def test_a_move_interleaved_between_read_and_write_is_not_overwritten(
    players: list[Client], stale: StaleReads
) -> None:
    table = players[:4]
    game_id = started(table)
    teller = give_clue(table, game_id)
    first, second = [c for c in table if c is not teller][:2]
    first_card = hand(first, game_id)[0]

    def first_submits_meanwhile() -> None:
        services = bootstrap.services()
        player = services.players.get_player(first.player_id)
        assert player is not None
        games.play(services, player, game_id, Submit(player.player_id, (first_card,)))

    stale.before_return = first_submits_meanwhile
    reply = second.post(f"/games/{game_id}/submissions", {"card_ids": hand(second, game_id)[:1]})

    assert reply.status == 200, reply.raw
    assert view(first, game_id)["you"]["submitted"] == [first_card]
    assert first.player_id not in waiting_for(first, game_id)
    assert second.player_id not in waiting_for(first, game_id)


def test_the_vote_that_loses_the_race_for_the_last_ballot_still_scores_the_round_once(
    players: list[Client], stale: StaleReads, feed: StreamFeed
) -> None:
    table = players[:4]
    game_id = started(table)
    teller = give_clue(table, game_id)
    submit_all(table, game_id)
    a, b, c = [p for p in table if p is not teller]
    assert a.post(f"/games/{game_id}/votes", {"card_ids": [foreign_card(a, game_id)]}).status == 200
    before = stale.snapshot(game_id)  # two ballots missing
    assert b.post(f"/games/{game_id}/votes", {"card_ids": [foreign_card(b, game_id)]}).status == 200
    ballot = foreign_card(c, game_id)
    stale.serve(before)
    reply = c.post(f"/games/{game_id}/votes", {"card_ids": [ballot]})

    assert reply.status == 200, reply.raw
    assert reply.body["round"]["number"] == 2
    history = rounds(teller, feed, game_id).body["rounds"]
    assert len(history) == 1
    assert {p["player_id"]: p["score"] for p in reply.body["players"]} == history[0]["points"]
    assert {v for card in history[0]["cards"] for v in card["voter_ids"]} == {
        a.player_id,
        b.player_id,
        c.player_id,
    }


# Through the handler: a retried move that is no longer legal is refused with the reason


def test_a_join_that_lost_the_last_seat_is_refused_409_game_full(
    players: list[Client], stale: StaleReads, table: Any
) -> None:
    game_id = lobby(players[:2], max_players=3)
    before = stale.snapshot(game_id)
    assert players[2].post(f"/games/{game_id}/join").status == 200
    stale.serve(before, times=2)  # two reads from before the last seat went: two lost races, then the truth
    assert_problem(players[3].post(f"/games/{game_id}/join"), 409, "game_full")
    assert "Item" not in table.get_item(Key={"pk": f"PLAYER#{players[3].player_id}", "sk": f"GAME#{game_id}"})
    assert [p["player_id"] for p in view(players[0], game_id)["players"]] == [
        c.player_id for c in players[:3]
    ]


def test_the_same_player_submitting_twice_at_once_gets_one_submission_and_409_already_submitted(
    players: list[Client], stale: StaleReads
) -> None:
    table = players[:4]
    game_id = started(table)
    teller = give_clue(table, game_id)
    guesser = next(c for c in table if c is not teller)
    first, second = hand(guesser, game_id)[:2]
    before = stale.snapshot(game_id)
    assert guesser.post(f"/games/{game_id}/submissions", {"card_ids": [first]}).status == 200
    stale.serve(before)
    assert_problem(
        guesser.post(f"/games/{game_id}/submissions", {"card_ids": [second]}), 409, "already_submitted"
    )
    mine = view(guesser, game_id)["you"]
    assert mine["submitted"] == [first]
    assert second in [c["card_id"] for c in mine["hand"]]


def test_two_clues_at_once_keep_the_first_and_refuse_the_second_409_wrong_phase(
    players: list[Client], stale: StaleReads
) -> None:
    table = players[:3]
    game_id = started(table)
    teller = storyteller(table, game_id)
    first, second = hand(teller, game_id)[:2]
    before = stale.snapshot(game_id)
    assert teller.post(f"/games/{game_id}/clue", {"card_id": first, "clue": "one"}).status == 200
    stale.serve(before)
    reply = teller.post(f"/games/{game_id}/clue", {"card_id": second, "clue": "two"})
    assert_problem(reply, 409, "wrong_phase")
    seen = view(teller, game_id)
    assert seen["round"]["clue"] == "one"
    assert seen["you"]["submitted"] == [first]


def test_a_game_that_keeps_changing_gives_up_with_409_busy_game_and_applies_nothing(
    players: list[Client], stale: StaleReads
) -> None:
    table = players[:4]
    game_id = started(table)
    teller = give_clue(table, game_id)
    first, second = [c for c in table if c is not teller][:2]
    before = stale.snapshot(game_id)
    assert first.post(f"/games/{game_id}/submissions", {"card_ids": hand(first, game_id)[:1]}).status == 200
    version = view(first, game_id)["version"]
    card = hand(second, game_id)[0]
    attempts = get_settings().move_attempts
    stale.serve(before, times=attempts)
    assert_problem(second.post(f"/games/{game_id}/submissions", {"card_ids": [card]}), 409, "busy_game")
    assert view(first, game_id)["version"] == version
    assert second.player_id in waiting_for(first, game_id)
    # Nothing was half-applied: the same move simply works once the game holds still.
    assert second.post(f"/games/{game_id}/submissions", {"card_ids": [card]}).status == 200


def test_with_if_match_a_lost_race_is_412_stale_version_instead_of_a_retry(
    players: list[Client], stale: StaleReads
) -> None:
    table = players[:4]
    game_id = started(table)
    teller = give_clue(table, game_id)
    first, second = [c for c in table if c is not teller][:2]
    etag = second.get(f"/games/{game_id}").headers["ETag"]
    before = stale.snapshot(game_id)
    assert first.post(f"/games/{game_id}/submissions", {"card_ids": hand(first, game_id)[:1]}).status == 200
    card = hand(second, game_id)[0]
    stale.serve(before)  # the precondition holds on the stale read, the write loses, the re-read fails it
    reply = second.post(f"/games/{game_id}/submissions", {"card_ids": [card]}, headers={"If-Match": etag})
    assert_problem(reply, 412, "stale_version")
    assert second.player_id in waiting_for(first, game_id)
