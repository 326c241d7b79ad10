"""ETags on game views: If-None-Match answers 304, If-Match on moves answers 412 when stale."""

from __future__ import annotations

import pytest

from app.aws.dynamodb.games import DynamoGameStore
from app.core.settings import get_settings
from handlers.etags import game_etag

from ..client import Client
from ..helpers import assert_problem, create_game, give_clue, hand, lobby, started, storyteller, view


def etag(client: Client, game_id: str) -> str:
    reply = client.get(f"/games/{game_id}")
    assert reply.status == 200, reply.raw
    tag: str = reply.headers["ETag"]
    return tag


# ETag


def test_the_etag_is_stable_while_the_game_does_not_change(players: list[Client]) -> None:
    game_id = create_game(players[0])
    assert etag(players[0], game_id) == etag(players[0], game_id)
    assert etag(players[0], game_id).startswith('"0-')


def test_the_etag_changes_with_the_version(players: list[Client]) -> None:
    game_id = create_game(players[0])
    before = etag(players[0], game_id)
    assert players[1].post(f"/games/{game_id}/join").status == 200
    assert etag(players[0], game_id) != before


def test_the_etag_differs_between_viewers_of_the_same_version(players: list[Client]) -> None:
    game_id = lobby(players[:2])
    tags = {etag(players[0], game_id), etag(players[1], game_id), etag(players[5], game_id)}
    assert len(tags) == 3


def test_a_move_answers_with_the_etag_a_following_get_will_have(players: list[Client]) -> None:
    game_id = lobby(players[:3])
    reply = players[0].post(f"/games/{game_id}/start")
    assert reply.headers["ETag"] == etag(players[0], game_id)


# If-None-Match


def test_if_none_match_with_the_current_etag_is_304_without_a_body(players: list[Client]) -> None:
    game_id = started(players[:3])
    tag = etag(players[1], game_id)
    reply = players[1].get(f"/games/{game_id}", headers={"If-None-Match": tag})
    assert reply.status == 304
    assert reply.raw == ""
    assert reply.headers["ETag"] == tag


@pytest.mark.parametrize("header", ["W/{tag}", '"nope", {tag}', "*"])
def test_if_none_match_also_accepts_weak_tags_lists_and_a_star(players: list[Client], header: str) -> None:
    game_id = create_game(players[0])
    tag = etag(players[0], game_id)
    reply = players[0].get(f"/games/{game_id}", headers={"If-None-Match": header.format(tag=tag)})
    assert reply.status == 304


def test_if_none_match_with_an_old_etag_is_200_with_the_new_view(players: list[Client]) -> None:
    game_id = create_game(players[0])
    old = etag(players[0], game_id)
    assert players[1].post(f"/games/{game_id}/join").status == 200
    reply = players[0].get(f"/games/{game_id}", headers={"If-None-Match": old})
    assert reply.status == 200
    assert reply.body["version"] == 1
    assert reply.headers["ETag"] != old


def test_another_viewers_etag_does_not_give_you_a_304(players: list[Client]) -> None:
    game_id = lobby(players[:2])
    reply = players[1].get(f"/games/{game_id}", headers={"If-None-Match": etag(players[0], game_id)})
    assert reply.status == 200
    assert reply.body["you"]["player_id"] == players[1].player_id


def test_if_none_match_still_requires_access(players: list[Client]) -> None:
    game_id = create_game(players[0], visibility="private")
    reply = players[1].get(f"/games/{game_id}", headers={"If-None-Match": "*"})
    assert_problem(reply, 403, "not_a_member")


# If-Match


def test_a_move_with_the_current_etag_in_if_match_is_applied(players: list[Client]) -> None:
    table = players[:3]
    game_id = started(table)
    teller = storyteller(table, game_id)
    card = hand(teller, game_id)[0]
    reply = teller.post(
        f"/games/{game_id}/clue",
        {"card_id": card, "clue": "home"},
        headers={"If-Match": etag(teller, game_id)},
    )
    assert reply.status == 200, reply.raw
    assert reply.body["phase"] == "submitting"


def test_a_move_with_a_stale_if_match_is_412_stale_version_and_applies_nothing(players: list[Client]) -> None:
    table = players[:4]
    game_id = started(table)
    teller = storyteller(table, game_id)
    guesser = next(c for c in table if c is not teller)
    old = etag(guesser, game_id)
    give_clue(table, game_id)
    version = view(guesser, game_id)["version"]
    reply = guesser.post(
        f"/games/{game_id}/submissions",
        {"card_ids": hand(guesser, game_id)[:1]},
        headers={"If-Match": old},
    )
    body = assert_problem(reply, 412, "stale_version")
    assert str(version) in body["detail"]
    assert view(guesser, game_id)["version"] == version
    assert guesser.player_id in view(guesser, game_id)["round"]["waiting_for"]


def test_if_match_wants_your_own_etag_not_another_viewers(players: list[Client]) -> None:
    table = players[:3]
    game_id = lobby(table)
    reply = table[0].post(f"/games/{game_id}/start", headers={"If-Match": etag(table[1], game_id)})
    assert_problem(reply, 412, "stale_version")
    assert view(table[0], game_id)["phase"] == "lobby"


@pytest.mark.parametrize("path", ["leave", "start"])
def test_lobby_moves_honour_if_match_too(players: list[Client], path: str) -> None:
    table = players[:3]
    game_id = create_game(table[0])
    old = etag(table[0], game_id)
    for guest in table[1:]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    assert_problem(table[0].post(f"/games/{game_id}/{path}", headers={"If-Match": old}), 412, "stale_version")
    assert len(view(table[0], game_id)["players"]) == 3


def test_if_match_star_matches_any_version_even_where_the_first_etag_is_stale(players: list[Client]) -> None:
    host = players[0]
    game_id = create_game(host)
    first = etag(host, game_id)
    for guest in players[1:3]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    assert_problem(host.post(f"/games/{game_id}/start", headers={"If-Match": first}), 412, "stale_version")
    reply = host.post(f"/games/{game_id}/start", headers={"If-Match": "*"})
    assert reply.status == 200, reply.raw
    assert reply.body["phase"] == "storytelling"


def test_a_weak_etag_never_satisfies_if_match(players: list[Client]) -> None:
    """RFC 9110: If-Match uses the strong comparison, so W/"…" cannot vouch for the exact version."""
    host = players[0]
    game_id = host.post("/games", {}).body["game_id"]
    etag = host.get(f"/games/{game_id}").headers["ETag"]
    reply = host.post(f"/games/{game_id}/leave", headers={"If-Match": f"W/{etag}"})
    assert reply.status == 412
    assert reply.body["code"] == "stale_version"


def test_join_honours_if_match_like_every_other_move(players: list[Client]) -> None:
    game_id = create_game(players[0])
    old = etag(players[1], game_id)
    assert players[2].post(f"/games/{game_id}/join").status == 200
    assert_problem(players[1].post(f"/games/{game_id}/join", headers={"If-Match": old}), 412, "stale_version")
    fresh = etag(players[1], game_id)
    assert players[1].post(f"/games/{game_id}/join", headers={"If-Match": fresh}).status == 200


# Polling: a 304 reads no state, and every poll is told when to come back


def test_a_304_is_answered_without_reading_the_game_state(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = started(players[:3])
    tag = etag(players[1], game_id)

    def no_full_read(*_: object, **__: object) -> None:
        raise AssertionError("a poll of an unchanged game read the whole game")

    monkeypatch.setattr(DynamoGameStore, "load_game", no_full_read)
    reply = players[1].get(f"/games/{game_id}", headers={"If-None-Match": tag})
    assert reply.status == 304
    assert reply.headers["ETag"] == tag


def test_a_forged_etag_gets_a_non_member_no_304_from_a_private_game(players: list[Client]) -> None:
    game_id = lobby(players[:2], visibility="private")
    forged = game_etag(game_id, 1, players[5].player_id)
    assert_problem(
        players[5].get(f"/games/{game_id}", headers={"If-None-Match": forged}), 403, "not_a_member"
    )


def test_the_game_and_the_inbox_advertise_the_poll_interval_on_200_and_304(players: list[Client]) -> None:
    game_id = create_game(players[0])
    advertised = {"Cache-Control": "private, max-age=10800", "Retry-After": "10800"}
    full = players[0].get(f"/games/{game_id}")
    unchanged = players[0].get(f"/games/{game_id}", headers={"If-None-Match": full.headers["ETag"]})
    inbox = players[0].get("/players/me/games")
    assert unchanged.status == 304
    for reply in (full, unchanged, inbox):
        assert {name: reply.headers.get(name) for name in advertised} == advertised


def test_the_poll_interval_is_configurable(players: list[Client], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLL_SECONDS", "300")
    get_settings.cache_clear()
    assert players[0].get("/players/me/games").headers["Cache-Control"] == "private, max-age=300"


# Cache-Control on a signed-in caller's answers


def test_a_signed_in_answer_with_no_freshness_of_its_own_is_not_stored(players: list[Client]) -> None:
    # The player's own email (a rotated webhook secret: tests/api/webhooks): nothing keeps it once answered.
    for reply in (players[0].get("/players/me"), players[0].get("/players/me/webhooks")):
        assert reply.status == 200, reply.raw
        assert reply.headers["Cache-Control"] == "no-store", reply.headers


def test_a_polled_answer_keeps_the_freshness_its_route_gives(players: list[Client]) -> None:
    reply = players[0].get("/players/me/games")
    assert reply.status == 200, reply.raw
    assert reply.headers["Cache-Control"].startswith("private, max-age="), reply.headers
