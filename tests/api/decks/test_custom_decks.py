"""Custom decks through the API on moto: upload forms, the ingest, ownership, and a game played with one."""

from __future__ import annotations

import io
from typing import Any

import boto3
from PIL import Image

from app import bootstrap
from app.aws.dynamodb.decks import DynamoDeckStore
from app.decks.card_images import card_of_upload, image_key
from handlers.card_ingest import ingest
from tests.support.aws import BUCKET, TABLE

from ..client import Client
from ..helpers import assert_problem, give_clue, rounds, started, submit_all, view
from ..json_bot import play_to_the_end
from ..stream import StreamFeed


def jpeg(shade: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (300, 450), (shade, 90, 200 - shade)).save(out, "JPEG")
    return out.getvalue()


def upload_all(created: dict[str, Any], data: bytes | None = None) -> None:
    """What S3 and its notification do for each form: store the upload, then run the ingest on it."""
    s3 = boto3.client("s3")
    images = bootstrap.card_images_in(BUCKET)
    for n, form in enumerate(created["uploads"]):
        key = form["fields"]["key"]
        s3.put_object(Bucket=BUCKET, Key=key, Body=data if data is not None else jpeg(n * 7 % 200))
        ingest(images, DynamoDeckStore(TABLE), key)


def new_deck(owner: Client, card_count: int = 6) -> dict[str, Any]:
    reply = owner.post("/decks", {"name": "Our cards", "card_count": card_count})
    assert reply.status == 201, reply.raw
    return reply.body


def test_a_new_deck_answers_201_with_its_location(players: list[Client]) -> None:
    reply = players[0].post("/decks", {"name": "Our cards", "card_count": 6})
    assert reply.status == 201, reply.raw
    assert reply.headers["Location"] == f"/decks/{reply.body['deck_id']}"
    assert players[0].get(reply.headers["Location"]).body["deck_id"] == reply.body["deck_id"]


def test_a_new_deck_answers_one_presigned_form_per_card_with_type_and_size_conditions(
    players: list[Client],
) -> None:
    created = new_deck(players[0], 8)
    expected = [f"{created['deck_id']}-{n:03d}" for n in range(1, 9)]
    assert [u["card_id"] for u in created["uploads"]] == expected
    fields = created["uploads"][0]["fields"]
    assert card_of_upload(fields["key"]) == created["uploads"][0]["card_id"]
    assert {"policy", "x-amz-signature"} <= set(fields)
    deck = players[0].get(f"/decks/{created['deck_id']}").body
    assert deck["ready"] is False
    assert {c["status"] for c in deck["cards"]} == {"pending"}


def test_a_deck_is_ready_once_every_card_is_in_and_only_its_owner_sees_it(players: list[Client]) -> None:
    created = new_deck(players[0])
    upload_all(created)
    deck = players[0].get(f"/decks/{created['deck_id']}").body
    assert deck["ready"] is True
    assert all(c["status"] == "ready" and c["image_url"] for c in deck["cards"])
    assert_problem(players[1].get(f"/decks/{created['deck_id']}"), 403, "not_deck_owner")
    assert boto3.client("s3").list_objects_v2(Bucket=BUCKET, Prefix="uploads/")["KeyCount"] == 0


def test_a_bad_upload_is_deleted_and_its_reason_recorded(players: list[Client]) -> None:
    created = new_deck(players[0])
    upload_all(created, data=b"GIF89a not a card")
    card = players[0].get(f"/decks/{created['deck_id']}").body["cards"][0]
    assert card["status"] == "rejected"
    assert card["reason"].startswith("unsupported_format")
    assert boto3.client("s3").list_objects_v2(Bucket=BUCKET, Prefix="uploads/")["KeyCount"] == 0


def test_a_game_refuses_an_unready_deck_and_someone_elses(players: list[Client]) -> None:
    created = new_deck(players[0], 200)
    assert_problem(players[0].post("/games", {"decks": [created["deck_id"]]}), 409, "deck_not_ready")
    assert_problem(players[1].post("/games", {"decks": [created["deck_id"]]}), 403, "not_deck_owner")


def test_a_game_with_a_custom_deck_id_that_names_no_deck_is_404_deck_not_found(players: list[Client]) -> None:
    reply = players[0].post("/games", {"decks": ["base", "d0123456789abcdef"]})
    assert_problem(reply, 404, "deck_not_found")


def test_a_custom_deck_too_small_for_the_table_is_refused_by_the_rules(players: list[Client]) -> None:
    created = new_deck(players[0])
    upload_all(created)
    reply = players[0].post("/games", {"decks": [created["deck_id"]], "max_players": 3})
    assert "6 cards" in assert_problem(reply, 422, "decks_too_small")["detail"]


def test_a_ready_custom_deck_mixed_with_an_official_one_plays_a_whole_game(
    players: list[Client], feed: StreamFeed
) -> None:
    created = new_deck(players[0], 30)
    upload_all(created)
    table = players[:4]
    game_id = started(table, decks=[created["deck_id"], "base"], max_players=4)
    final = play_to_the_end(table, game_id, seed=3)
    assert final["phase"] == "finished"
    history = rounds(table[1], feed, game_id).body["rounds"]
    played = [c for r in history for c in r["cards"]]
    assert all(c["image_url"] for c in played)
    assert any(c["card_id"].startswith(created["deck_id"]) for c in played)
    assert all(c["image_url"] for c in view(table[2], game_id)["you"]["hand"])


def test_no_link_or_key_of_a_table_card_says_whose_it_is_or_where_they_sit(players: list[Client]) -> None:
    table = players[:4]
    game_id = started(table)
    give_clue(table, game_id)
    submit_all(table, game_id)
    secrets = {c.player_id for c in table} | {c.name for c in table}
    for client in table:
        on_table = view(client, game_id)["round"]["table"]
        assert len(on_table) == 4
        for card in on_table:
            assert card["image_url"].split("?")[0].endswith(f"/{BUCKET}/{image_key(card['card_id'])}")
            assert not any(s in card["image_url"] for s in secrets)
    links = [{c["card_id"]: c["image_url"] for c in view(p, game_id)["round"]["table"]} for p in table]
    assert all(seen == links[0] for seen in links)
