"""GameStreamFunction writes each scored round's history item from the game item's images: a failed
write fails its record (and nothing after it in that record runs), and the retry writes the round."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws import clients as aws_clients

from ..client import Client
from ..helpers import foreign_card, give_clue, started, submit_all
from ..stream import StreamFeed, invoke_notify


def _score_a_round(clients: list[Client], game_id: str) -> None:
    teller = give_clue(clients, game_id)
    submit_all(clients, game_id)
    for client in clients:
        if client is not teller:
            ballot = {"card_ids": [foreign_card(client, game_id)]}
            assert client.post(f"/games/{game_id}/votes", ballot).status == 200


def test_a_round_whose_history_write_fails_fails_its_record_and_the_retry_writes_it(
    players: list[Client], feed: StreamFeed
) -> None:
    clients = players[:3]
    game_id = started(clients)
    assert feed.deliver() == {"batchItemFailures": []}
    _score_a_round(clients, game_id)
    event = feed.event()
    assert clients[0].get(f"/games/{game_id}/rounds").body["rounds"] == []

    def refuse_rounds(params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name == "PutItem" and params["Item"]["sk"]["S"].startswith("ROUND#"):
            raise ClientError({"Error": {"Code": "InternalServerError", "Message": "injected"}}, "PutItem")

    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", refuse_rounds)
    try:
        failed = invoke_notify(event)["batchItemFailures"]
    finally:
        client.meta.events.unregister("provide-client-params.dynamodb", refuse_rounds)

    # Only the scoring vote's record failed, reported alone for Lambda to deliver again.
    scoring = [r["dynamodb"]["SequenceNumber"] for r in event["Records"]][-1]
    assert failed == [{"itemIdentifier": scoring}]
    assert clients[0].get(f"/games/{game_id}/rounds").body["rounds"] == []
    assert invoke_notify(event) == {"batchItemFailures": []}
    (reveal,) = clients[0].get(f"/games/{game_id}/rounds").body["rounds"]
    assert reveal["number"] == 1
    assert reveal == clients[0].get(f"/games/{game_id}").body["last_round"]
