"""The inbox entries are written by GameStreamFunction from the table's stream, never by the move itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.aws import clients as aws_clients

from ..client import Client
from ..helpers import give_clue, hand, inbox, started, storyteller, view
from ..json_bot import play_to_the_end
from ..stream import StreamFeed, invoke_notify


def turns(clients: list[Client]) -> dict[str, bool]:
    """Each player's your_turn as their inbox shows it now, without delivering the stream."""
    flags = {}
    for client in clients:
        [entry] = client.get("/players/me/games").body["games"]
        flags[client.player_id] = entry["your_turn"]
    return flags


class Writes:
    """The write calls the app's DynamoDB client makes, by operation, with the sort keys they touch."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        name = model.name
        if name in ("PutItem", "UpdateItem", "DeleteItem"):
            key = params.get("Item") or params["Key"]
            self.calls.append((name, [key["sk"]["S"]]))
        elif name == "TransactWriteItems":
            actions = [next(iter(e.values())) for e in params["TransactItems"]]
            self.calls.append((name, [(a.get("Item") or a["Key"])["sk"]["S"] for a in actions]))
        elif name == "BatchWriteItem":
            sks = [
                (r.get("PutRequest", {}).get("Item") or r["DeleteRequest"]["Key"])["sk"]["S"]
                for requests in params["RequestItems"].values()
                for r in requests
            ]
            self.calls.append((name, sks))


@pytest.fixture
def writes(aws: None) -> Iterator[Writes]:
    recorder = Writes()
    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", recorder)
    yield recorder
    client.meta.events.unregister("provide-client-params.dynamodb", recorder)


def test_a_move_leaves_the_entries_alone_until_the_stream_consumer_writes_them(
    players: list[Client], feed: StreamFeed, writes: Writes
) -> None:
    table = players[:4]
    game_id = started(table)
    feed.deliver()
    teller = storyteller(table, game_id)
    assert turns(table) == {c.player_id: c is teller for c in table}

    writes.calls.clear()
    give_clue(table, game_id)
    # The clue is one conditional write on the game item, and the inbox has not heard of it yet.
    assert writes.calls == [("PutItem", ["STATE"])]
    assert turns(table) == {c.player_id: c is teller for c in table}

    writes.calls.clear()
    assert feed.deliver() == {"batchItemFailures": []}
    assert turns(table) == {c.player_id: c is not teller for c in table}
    # One conditional update per member whose entry changed (all four here): no transaction, no game write.
    entry_writes = [call for call in writes.calls if call[1][0].startswith("GAME#")]
    assert sorted(name for name, _ in entry_writes) == ["UpdateItem"] * 4
    assert not [call for call in writes.calls if call[0] == "TransactWriteItems" or "STATE" in call[1]]


def test_a_replayed_older_stream_record_never_takes_an_entry_back(
    players: list[Client], feed: StreamFeed
) -> None:
    table = players[:3]
    game_id = started(table)
    feed.deliver()
    teller = give_clue(table, game_id)
    clue = feed.event()
    assert invoke_notify(clue) == {"batchItemFailures": []}
    submitter = next(c for c in table if c is not teller)
    assert (
        submitter.post(f"/games/{game_id}/submissions", {"card_ids": hand(submitter, game_id)[:2]}).status
        == 200
    )
    feed.deliver()
    [after] = inbox(submitter, feed).body["games"]
    assert after["your_turn"] is False

    # The stream delivers at least once: the clue's record again must not say "your turn" again.
    assert invoke_notify(clue) == {"batchItemFailures": []}
    [again] = submitter.get("/players/me/games").body["games"]
    assert again == after
    assert again["version"] == view(submitter, game_id)["version"]


def test_a_finished_game_moves_to_every_players_history_through_the_stream(
    players: list[Client], feed: StreamFeed
) -> None:
    table = players[:3]
    game_id = started(table, target_score=3)
    final = play_to_the_end(table, game_id, seed=2)
    assert final["phase"] == "finished"
    for client in table:
        assert inbox(client, feed).body["games"] == []
        [entry] = inbox(client, feed, status="finished").body["games"]
        assert (entry["game_id"], entry["phase"], entry["version"]) == (game_id, "finished", final["version"])
