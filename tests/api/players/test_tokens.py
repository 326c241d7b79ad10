"""Tokens: rotated (the new one shown once), revoked, and refused once older than an optional maximum age."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app import bootstrap
from app.core.settings import get_settings
from app.services import Services

from ..client import Client, call
from ..helpers import assert_problem


def test_rotating_gives_a_new_token_and_the_old_one_stops_working(players: list[Client]) -> None:
    ada = players[0]
    old = ada.token
    reply = ada.post("/players/me/tokens")
    assert reply.status == 201
    assert reply.headers["Location"] == "/players/me"
    assert reply.headers["Cache-Control"] == "no-store"
    assert reply.body["player_id"] == ada.player_id
    assert reply.body["token"] != old
    ada.token = reply.body["token"]
    assert ada.get("/players/me").status == 200
    stale = call("GET", "/players/me", headers={"Authorization": f"Bearer {old}"})
    assert_problem(stale, 401, "invalid_token")


def test_a_rotated_token_keeps_the_players_games(players: list[Client]) -> None:
    ada = players[0]
    game_id = ada.post("/games", {}).body["game_id"]
    ada.token = ada.post("/players/me/tokens").body["token"]
    assert [g["game_id"] for g in ada.get("/players/me/games").body["games"]] == [game_id]


def test_revoking_makes_the_token_a_401(players: list[Client]) -> None:
    ada = players[0]
    reply = call("DELETE", "/players/me/tokens/current", headers=ada.auth())
    assert reply.status == 204
    assert reply.raw == ""
    problem = assert_problem(ada.get("/players/me"), 401, "invalid_token")
    assert problem["detail"] == "the token is not valid"


def test_a_revoked_token_cannot_be_rotated_back_to_life(players: list[Client]) -> None:
    ada = players[0]
    call("DELETE", "/players/me/tokens/current", headers=ada.auth())
    assert_problem(ada.post("/players/me/tokens"), 401, "invalid_token")


def test_revoking_one_players_token_leaves_the_others_working(players: list[Client]) -> None:
    assert call("DELETE", "/players/me/tokens/current", headers=players[0].auth()).status == 204
    assert_problem(players[0].get("/players/me"), 401, "invalid_token")
    reply = players[1].get("/players/me")
    assert reply.status == 200, reply.raw
    assert reply.body["player_id"] == players[1].player_id


def test_rotating_and_revoking_need_a_token(aws: None) -> None:
    assert_problem(call("POST", "/players/me/tokens"), 401, "missing_token")
    assert_problem(call("DELETE", "/players/me/tokens/current"), 401, "missing_token")


def _max_age(monkeypatch: pytest.MonkeyPatch, seconds: int) -> None:
    monkeypatch.setenv("TOKEN_MAX_AGE_SECONDS", str(seconds))
    get_settings.cache_clear()  # read once per process, like a Lambda's environment


def _later(monkeypatch: pytest.MonkeyPatch, seconds: int) -> None:
    """Every invocation from now on runs `seconds` into the future."""
    moment = datetime.now(UTC) + timedelta(seconds=seconds)
    build = bootstrap.services

    def at_moment(deadline: Any = None, settings: Any = None) -> Services:
        return build(deadline, settings).at(lambda: moment)

    monkeypatch.setattr(bootstrap, "services", at_moment)


def test_without_a_maximum_age_a_token_never_expires(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    _later(monkeypatch, 10 * 365 * 86_400)
    assert players[0].get("/players/me").status == 200


def test_a_token_older_than_the_maximum_age_is_401_token_expired(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    _max_age(monkeypatch, 3600)
    _later(monkeypatch, 3_700)
    reply = players[0].get("/players/me")
    assert_problem(reply, 401, "token_expired")
    assert reply.headers["WWW-Authenticate"] == 'Bearer error="invalid_token"'


def test_a_token_younger_than_the_maximum_age_works(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    _max_age(monkeypatch, 3600)
    _later(monkeypatch, 3_500)
    assert players[0].get("/players/me").status == 200


def test_rotation_restarts_the_clock_of_the_maximum_age(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    _max_age(monkeypatch, 3600)
    ada = players[0]
    _later(monkeypatch, 3_000)
    ada.token = ada.post("/players/me/tokens").body["token"]
    _later(monkeypatch, 6_000)
    assert ada.get("/players/me").status == 200


def test_an_expired_token_is_told_only_to_its_holder(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    _max_age(monkeypatch, 3600)
    _later(monkeypatch, 3_700)
    forged = f"{players[0].player_id}.not-the-secret"
    assert_problem(
        call("GET", "/players/me", headers={"Authorization": f"Bearer {forged}"}), 401, "invalid_token"
    )
