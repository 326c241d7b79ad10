"""Sessions: one per signed-in device, listed without secrets, signed out one by one or all but this one;
legacy tokens keep working; a rotation under an Idempotency-Key survives its lost answer; renaming."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app import bootstrap
from app.services import Services

from ..client import Client, call
from ..helpers import assert_problem

# A player who never attached an address (see tests/api/sign_in/test_sign_in.py for one who did).
NO_EMAIL = {"email": None, "email_verified": False, "pending_email": None}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def second_device(ada: Client, device: str = "Ada's tablet") -> Client:
    """Ada signed in again on another device (until sign-in exists: a session opened by the use case)."""
    from app.players.accounts import open_session

    services = bootstrap.services()
    player = services.players.get_player(ada.player_id)
    assert player is not None
    _, token = open_session(services, player, device)
    return Client(ada.name, token=token, player_id=ada.player_id)


def session_of(client: Client) -> str:
    return client.token.split(".")[1]


def _later(monkeypatch: pytest.MonkeyPatch, seconds: int) -> None:
    moment = datetime.now(UTC) + timedelta(seconds=seconds)
    build = bootstrap.services

    def at_moment(deadline: Any = None, settings: Any = None) -> Services:
        return build(deadline, settings).at(lambda: moment)

    monkeypatch.setattr(bootstrap, "services", at_moment)


# Registering opens a session


def test_a_new_token_names_its_player_and_its_session(aws: None) -> None:
    reply = call("POST", "/players", body={"name": "Ada", "device": "Ada's phone"})
    assert reply.status == 201, reply.raw
    assert set(reply.body) == {"player_id", "name", "token"}
    player_id, session_id, secret = reply.body["token"].split(".")
    assert player_id == reply.body["player_id"]
    assert session_id.startswith("s_")
    assert len(session_id) == 18
    assert len(secret) >= 43
    me = call("GET", "/players/me", headers=bearer(reply.body["token"]))
    assert me.body == {"player_id": player_id, "name": "Ada", "session_id": session_id, **NO_EMAIL}


def test_the_session_item_holds_the_hash_and_the_device_but_never_the_token(table: Any) -> None:
    reply = call("POST", "/players", body={"name": "Ada", "device": "  Ada's phone "})
    player_id, session_id, secret = reply.body["token"].split(".")
    item = table.get_item(Key={"pk": f"PLAYER#{player_id}", "sk": f"SESSION#{session_id}"})["Item"]
    assert item["token_hash"] == hashlib.sha256(secret.encode()).hexdigest()
    assert item["device"] == "Ada's phone"
    everything = json.dumps(table.scan()["Items"], default=str)
    assert secret not in everything


def test_without_a_device_the_session_is_an_unnamed_device(aws: None) -> None:
    ada = Client("Ada").register()
    [session] = ada.get("/players/me/sessions").body["sessions"]
    assert session["device"] == "unnamed device"


@pytest.mark.parametrize(
    ("device", "code"),
    [
        ("", "validation_error"),
        ("   ", "blank_device"),
        ("x" * 41, "validation_error"),
        ("\u202eevil", "bidi_control"),
        (7, "validation_error"),
        (None, "validation_error"),
    ],
)
def test_a_bad_device_label_is_422(aws: None, device: Any, code: str) -> None:
    assert_problem(call("POST", "/players", body={"name": "Ada", "device": device}), 422, code)


def test_a_device_label_over_its_byte_limit_is_422_device_too_long(aws: None) -> None:
    reply = call("POST", "/players", body={"name": "Ada", "device": "\U0001f600" * 40})
    assert_problem(reply, 422, "device_too_long")


# Listing


def test_sessions_are_listed_oldest_first_with_the_current_one_marked_and_no_secret(aws: None) -> None:
    ada = Client("Ada").register()
    tablet = second_device(ada)
    reply = tablet.get("/players/me/sessions")
    assert reply.status == 200, reply.raw
    assert reply.headers["Cache-Control"] == "no-store"
    sessions = reply.body["sessions"]
    assert [s["session_id"] for s in sessions] == [session_of(ada), session_of(tablet)]
    assert [s["current"] for s in sessions] == [False, True]
    assert sessions[1]["device"] == "Ada's tablet"
    assert set(sessions[0]) == {"session_id", "device", "created_at", "last_used_at", "current"}
    assert ada.token.split(".")[2] not in reply.raw
    assert "hash" not in reply.raw


def test_another_players_sessions_are_not_listed(players: list[Client]) -> None:
    listed = players[0].get("/players/me/sessions").body["sessions"]
    assert [s["session_id"] for s in listed] == [session_of(players[0])]


def test_last_use_is_recorded_at_most_once_an_hour(table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ada = Client("Ada").register()
    key = {"pk": f"PLAYER#{ada.player_id}", "sk": f"SESSION#{session_of(ada)}"}
    first = table.get_item(Key=key)["Item"]["last_used_at"]
    _later(monkeypatch, 1_800)
    assert ada.get("/players/me").status == 200
    assert table.get_item(Key=key)["Item"]["last_used_at"] == first  # a read stays a read
    _later(monkeypatch, 3_700)
    assert ada.get("/players/me").status == 200
    touched = table.get_item(Key=key)["Item"]["last_used_at"]
    assert touched > first
    listed = ada.get("/players/me/sessions").body["sessions"]
    assert listed[0]["last_used_at"] == touched


# Signing out


def test_signing_another_device_out_leaves_this_one_working(aws: None) -> None:
    ada = Client("Ada").register()
    tablet = second_device(ada)
    reply = ada.delete(f"/players/me/sessions/{session_of(tablet)}")
    assert reply.status == 204, reply.raw
    assert_problem(tablet.get("/players/me"), 401, "invalid_token")
    assert ada.get("/players/me").status == 200
    assert [s["session_id"] for s in ada.get("/players/me/sessions").body["sessions"]] == [session_of(ada)]


def test_signing_out_this_session_by_id_is_a_revoke(aws: None) -> None:
    ada = Client("Ada").register()
    tablet = second_device(ada)
    assert ada.delete(f"/players/me/sessions/{session_of(ada)}").status == 204
    assert_problem(ada.get("/players/me"), 401, "invalid_token")
    assert tablet.get("/players/me").status == 200


@pytest.mark.parametrize("session_id", ["s_0123456789abcdef", "nope", "s_" + "f" * 300, "s_legacy"])
def test_an_unknown_session_is_404_session_not_found(aws: None, session_id: str) -> None:
    ada = Client("Ada").register()
    assert_problem(ada.delete(f"/players/me/sessions/{session_id}"), 404, "session_not_found")


def test_another_players_session_is_404_and_keeps_working(players: list[Client]) -> None:
    ada, bob = players[0], players[1]
    assert_problem(ada.delete(f"/players/me/sessions/{session_of(bob)}"), 404, "session_not_found")
    assert bob.get("/players/me").status == 200


def test_signing_out_everywhere_else_keeps_only_this_session(players: list[Client]) -> None:
    ada, bob = players[0], players[1]
    tablet, laptop = second_device(ada), second_device(ada, "laptop")
    reply = tablet.delete("/players/me/sessions")
    assert reply.status == 204, reply.raw
    for gone in (ada, laptop):
        assert_problem(gone.get("/players/me"), 401, "invalid_token")
    assert [s["session_id"] for s in tablet.get("/players/me/sessions").body["sessions"]] == [
        session_of(tablet)
    ]
    assert bob.get("/players/me").status == 200


def test_the_session_routes_need_a_token(aws: None) -> None:
    assert_problem(call("GET", "/players/me/sessions"), 401, "missing_token")
    assert_problem(call("DELETE", "/players/me/sessions"), 401, "missing_token")
    assert_problem(call("DELETE", "/players/me/sessions/s_0123456789abcdef"), 401, "missing_token")
    assert_problem(call("PATCH", "/players/me", body={"name": "Eve"}), 401, "missing_token")


# Rotating and revoking act on this session only


def test_rotating_one_session_leaves_the_others_working(aws: None) -> None:
    ada = Client("Ada").register()
    tablet = second_device(ada)
    reply = ada.post("/players/me/tokens")
    assert reply.status == 201
    assert reply.body["token"].split(".")[1] == session_of(ada)  # the same session, a new secret
    assert_problem(ada.get("/players/me"), 401, "invalid_token")
    ada.token = reply.body["token"]
    assert ada.get("/players/me").status == 200
    assert tablet.get("/players/me").status == 200


def test_revoking_one_session_leaves_the_others_working(aws: None) -> None:
    ada = Client("Ada").register()
    tablet = second_device(ada)
    assert ada.delete("/players/me/tokens/current").status == 204
    assert_problem(ada.get("/players/me"), 401, "invalid_token")
    assert tablet.get("/players/me").status == 200


# A rotation's lost answer


def test_a_rotation_retried_with_its_key_and_the_old_token_gets_the_same_new_token(aws: None) -> None:
    ada = Client("Ada").register()
    old = ada.token
    first = ada.post("/players/me/tokens", headers={"Idempotency-Key": "rotate-1"})
    assert first.status == 201, first.raw
    new = first.body["token"]  # ... and the answer is lost on the way
    retry = call("POST", "/players/me/tokens", headers={**bearer(old), "Idempotency-Key": "rotate-1"})
    assert retry.status == 201, retry.raw
    assert retry.headers["Cache-Control"] == "no-store"
    assert retry.body == first.body
    assert call("GET", "/players/me", headers=bearer(new)).status == 200
    # The same key with the new token: the same answer again, not a second rotation.
    again = call("POST", "/players/me/tokens", headers={**bearer(new), "Idempotency-Key": "rotate-1"})
    assert again.body["token"] == new
    assert call("GET", "/players/me", headers=bearer(new)).status == 200


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/players/me"),
        ("GET", "/players/me/sessions"),
        ("DELETE", "/players/me/tokens/current"),
        ("DELETE", "/players/me/sessions"),
        ("POST", "/players/me/tokens"),  # without the key
    ],
)
def test_the_token_a_keyed_rotation_replaced_is_refused_everywhere_else(
    aws: None, method: str, path: str
) -> None:
    ada = Client("Ada").register()
    old = ada.token
    new = ada.post("/players/me/tokens", headers={"Idempotency-Key": "rotate-1"}).body["token"]
    assert_problem(call(method, path, headers=bearer(old)), 401, "invalid_token")
    assert call("GET", "/players/me", headers=bearer(new)).status == 200


def test_the_replaced_token_with_another_key_is_401(aws: None) -> None:
    ada = Client("Ada").register()
    old = ada.token
    ada.post("/players/me/tokens", headers={"Idempotency-Key": "rotate-1"})
    reply = call("POST", "/players/me/tokens", headers={**bearer(old), "Idempotency-Key": "rotate-2"})
    assert_problem(reply, 401, "invalid_token")


def test_the_replaced_token_is_refused_once_the_new_one_was_rotated_again(aws: None) -> None:
    ada = Client("Ada").register()
    old = ada.token
    new = ada.post("/players/me/tokens", headers={"Idempotency-Key": "rotate-1"}).body["token"]
    newer = call("POST", "/players/me/tokens", headers=bearer(new)).body["token"]
    reply = call("POST", "/players/me/tokens", headers={**bearer(old), "Idempotency-Key": "rotate-1"})
    assert_problem(reply, 401, "invalid_token")
    assert call("GET", "/players/me", headers=bearer(newer)).status == 200


def test_the_replaced_token_is_refused_once_the_key_is_forgotten(
    aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada = Client("Ada").register()
    old = ada.token
    ada.post("/players/me/tokens", headers={"Idempotency-Key": "rotate-1"})
    _later(monkeypatch, 86_400 + 60)
    reply = call("POST", "/players/me/tokens", headers={**bearer(old), "Idempotency-Key": "rotate-1"})
    assert_problem(reply, 401, "invalid_token")


def test_no_rotated_token_is_stored(table: Any) -> None:
    ada = Client("Ada").register()
    new = ada.post("/players/me/tokens", headers={"Idempotency-Key": "rotate-1"}).body["token"]
    everything = json.dumps(table.scan()["Items"], default=str)
    assert new.split(".")[2] not in everything
    assert "rotate-1" not in everything


def test_two_players_rotating_under_the_same_key_get_different_tokens(players: list[Client]) -> None:
    first = players[0].post("/players/me/tokens", headers={"Idempotency-Key": "k"}).body["token"]
    second = players[1].post("/players/me/tokens", headers={"Idempotency-Key": "k"}).body["token"]
    assert first.split(".")[2] != second.split(".")[2]


# Tokens from before sessions


def legacy_player(table: Any, name: str = "Old") -> str:
    """A profile as registration wrote it before sessions, and its two-part token."""
    secret = "legacy-secret-0123456789abcdefghijklmnopqrstuv"
    table.put_item(
        Item={
            "pk": "PLAYER#p_00000000000000aa",
            "sk": "PROFILE",
            "name": name,
            "token_hash": hashlib.sha256(secret.encode()).hexdigest(),
            "created_at": "2026-01-01T00:00:00.000+00:00",
        }
    )
    return f"p_00000000000000aa.{secret}"


def test_a_token_from_before_sessions_still_works_as_the_legacy_session(table: Any) -> None:
    token = legacy_player(table)
    me = call("GET", "/players/me", headers=bearer(token))
    assert me.status == 200, me.raw
    assert me.body == {"player_id": "p_00000000000000aa", "name": "Old", "session_id": "s_legacy", **NO_EMAIL}
    [session] = call("GET", "/players/me/sessions", headers=bearer(token)).body["sessions"]
    assert session["session_id"] == "s_legacy"
    assert session["current"] is True


def test_a_legacy_token_rotates_into_a_three_part_token_of_the_same_session(table: Any) -> None:
    token = legacy_player(table)
    rotated = call("POST", "/players/me/tokens", headers={**bearer(token), "Idempotency-Key": "r"})
    assert rotated.status == 201, rotated.raw
    new = rotated.body["token"]
    assert new.startswith("p_00000000000000aa.s_legacy.")
    assert_problem(call("GET", "/players/me", headers=bearer(token)), 401, "invalid_token")
    retry = call("POST", "/players/me/tokens", headers={**bearer(token), "Idempotency-Key": "r"})
    assert retry.body["token"] == new
    assert call("GET", "/players/me", headers=bearer(new)).status == 200


def test_a_legacy_session_can_be_signed_out_from_another_session(table: Any) -> None:
    token = legacy_player(table)
    from app.players.accounts import open_session

    services = bootstrap.services()
    player = services.players.get_player("p_00000000000000aa")
    assert player is not None
    _, fresh = open_session(services, player, "new phone")
    assert call("DELETE", "/players/me/sessions/s_legacy", headers=bearer(fresh)).status == 204
    assert_problem(call("GET", "/players/me", headers=bearer(token)), 401, "invalid_token")
    assert call("GET", "/players/me", headers=bearer(fresh)).status == 200
    listed = call("GET", "/players/me/sessions", headers=bearer(fresh)).body["sessions"]
    assert [s["device"] for s in listed] == ["new phone"]


# Renaming


def test_renaming_changes_the_name_for_new_games_and_not_for_started_ones(players: list[Client]) -> None:
    ada, bob = players[0], players[1]
    old_game = ada.post("/games", {}).body["game_id"]
    reply = call("PATCH", "/players/me", body={"name": "  Ada L. "}, headers=ada.auth())
    assert reply.status == 200, reply.raw
    assert reply.body == {
        "player_id": ada.player_id,
        "name": "Ada L.",
        "session_id": session_of(ada),
        **NO_EMAIL,
    }
    assert ada.get("/players/me").body["name"] == "Ada L."
    new_game = ada.post("/games", {}).body["game_id"]
    seats = {g: [s["name"] for s in bob.get(f"/games/{g}").body["players"]] for g in (old_game, new_game)}
    assert seats == {old_game: ["Player 0"], new_game: ["Ada L."]}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "   "}, "blank_name"),
        ({"name": "x" * 41}, "validation_error"),
        ({}, "validation_error"),
        ({"name": 3}, "validation_error"),
        ({"name": "A", "x": 1}, "validation_error"),
    ],
)
def test_a_bad_new_name_is_422(players: list[Client], body: dict[str, Any], code: str) -> None:
    reply = call("PATCH", "/players/me", body=body, headers=players[0].auth())
    assert_problem(reply, 422, code)
    assert players[0].get("/players/me").body["name"] == "Player 0"
