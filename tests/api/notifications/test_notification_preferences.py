"""`GET`/`PUT /players/me/notifications`: preferences with defaults, partial updates, clear refusals, and
quiet hours that move the deadlines of the seats that keep them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.games import state_codec
from dixit.quiet_hours import QuietHours, SeatQuiet

from ..client import Client, call
from ..helpers import assert_problem, create_game, inbox, started, storyteller, view
from ..stream import StreamFeed

ALL = ["your_turn", "reminder", "game_over"]
DEFAULTS = {
    "muted": False,
    "time_zone": "UTC",
    "quiet_hours": None,
    "channels": {"email": ALL, "web_push": ALL, "device_push": ALL},
    "digest": None,
    "digest_talk": True,
}


def preferences(client: Client) -> dict[str, Any]:
    reply = client.get("/players/me/notifications")
    assert reply.status == 200, reply.raw
    body: dict[str, Any] = reply.body
    return body


def test_a_new_player_sees_the_default_preferences(players: list[Client]) -> None:
    assert preferences(players[0]) == DEFAULTS


def test_a_partial_update_changes_only_the_fields_it_names_and_answers_them_all(
    players: list[Client],
) -> None:
    me = players[0]
    reply = me.put(
        "/players/me/notifications",
        {"time_zone": "Europe/Paris", "quiet_hours": {"start": "22:00", "end": "08:00"}, "digest": 7},
    )
    assert reply.status == 200, reply.raw
    expected = {
        **DEFAULTS,
        "time_zone": "Europe/Paris",
        "quiet_hours": {"start": "22:00", "end": "08:00"},
        "digest": 7,
    }
    assert reply.body == expected
    reply = me.put("/players/me/notifications", {"channels": {"email": ["game_over", "your_turn"]}})
    expected["channels"] = {"email": ["your_turn", "game_over"], "web_push": ALL, "device_push": ALL}
    assert reply.body == expected
    assert preferences(me) == expected
    assert preferences(players[1]) == DEFAULTS


def test_the_old_mute_body_still_mutes_and_keeps_the_rest(players: list[Client]) -> None:
    me = players[0]
    me.put("/players/me/notifications", {"time_zone": "Asia/Tokyo"})
    assert me.put("/players/me/notifications", {"muted": True}).body == {
        **DEFAULTS,
        "muted": True,
        "time_zone": "Asia/Tokyo",
    }
    assert preferences(me)["muted"] is True


def test_null_turns_quiet_hours_and_the_digest_off(players: list[Client]) -> None:
    me = players[0]
    me.put("/players/me/notifications", {"quiet_hours": {"start": "23:00", "end": "06:30"}, "digest": 0})
    assert me.put("/players/me/notifications", {"quiet_hours": None, "digest": None}).body == DEFAULTS


def test_an_emptied_channel_is_kept_empty(players: list[Client]) -> None:
    me = players[0]
    assert me.put("/players/me/notifications", {"channels": {"web_push": []}}).status == 200
    assert preferences(me)["channels"]["web_push"] == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"time_zone": "Mars/Olympus"}, "invalid_time_zone"),
        ({"time_zone": "europe/paris"}, "invalid_time_zone"),
        ({"time_zone": "localtime"}, "invalid_time_zone"),
        ({"time_zone": "Factory"}, "invalid_time_zone"),
        ({"time_zone": "Etc/GMT+5"}, "invalid_time_zone"),
        ({"time_zone": None}, "validation_error"),  # the schema offers no null here
        ({"quiet_hours": {"start": "22:00", "end": "22:00"}}, "invalid_quiet_hours"),
        ({"quiet_hours": {"start": "25:00", "end": "08:00"}}, "invalid_quiet_hours"),
        ({"quiet_hours": {"start": "10pm", "end": "08:00"}}, "invalid_quiet_hours"),
        ({"quiet_hours": {"start": "\uff12\uff12:\uff10\uff10", "end": "08:00"}}, "invalid_quiet_hours"),
        ({"quiet_hours": {"start": "08:00", "end": "06:00"}}, "invalid_quiet_hours"),
        ({"channels": {"sms": ["your_turn"]}}, "invalid_channels"),
        ({"channels": {"email": ["timeout"]}}, "invalid_channels"),
        ({"channels": {"email": ["reminder", "reminder"]}}, "invalid_channels"),
        ({"channels": None}, "validation_error"),
        ({"digest": 24}, "invalid_digest"),
        ({"digest": -1}, "invalid_digest"),
        ({"muted": None}, "validation_error"),
        ({"digest_talk": None}, "validation_error"),
    ],
)
def test_a_value_that_cannot_be_kept_is_refused_with_its_code_and_nothing_is_saved(
    players: list[Client], body: dict[str, Any], code: str
) -> None:
    me = players[0]
    # A good field beside the bad one is not saved either.
    problem = assert_problem(me.put("/players/me/notifications", {"digest": 9, **body}), 422, code)
    assert "Traceback" not in problem["detail"]
    assert preferences(me) == DEFAULTS


@pytest.mark.parametrize(
    "body",
    [{"digest": "7"}, {"digest": 7.5}, {"muted": "yes"}, {"quiet_hours": {"start": "22:00"}}, {"sound": 1}],
)
def test_a_body_of_the_wrong_shape_is_a_validation_error(players: list[Client], body: dict[str, Any]) -> None:
    assert_problem(players[0].put("/players/me/notifications", body), 422, "validation_error")


def test_preferences_need_a_signed_in_player() -> None:
    assert call("GET", "/players/me/notifications").status == 401


# Quiet hours and deadlines


def _deadline(client: Client, game_id: str) -> datetime:
    return datetime.fromisoformat(view(client, game_id)["round"]["deadline"])


def _hhmm(moment: datetime) -> str:
    return moment.strftime("%H:%M")


def _quiet_around(moment: datetime) -> dict[str, str]:
    """UTC quiet hours from an hour before `moment` to two hours after it."""
    return {"start": _hhmm(moment - timedelta(hours=1)), "end": _hhmm(moment + timedelta(hours=2))}


def test_a_deadline_in_the_storytellers_quiet_hours_moves_to_their_end_plus_the_waking_window(
    players: list[Client],
) -> None:
    clients = players[:3]
    plain = started(clients, move_timeout_hours=10)
    expected = _deadline(clients[0], plain).replace(second=0)  # when the next game's deadline falls
    quiet = _quiet_around(expected)
    for client in clients:
        assert client.put("/players/me/notifications", {"quiet_hours": quiet}).status == 200
    game_id = started(clients, move_timeout_hours=10)
    ends = datetime.combine(expected.date(), datetime.strptime(quiet["end"], "%H:%M").time(), UTC)
    if ends < expected - timedelta(hours=1):
        ends += timedelta(days=1)
    # Ten hours' timeout: a tenth is the hour the player gets after waking.
    assert _deadline(clients[0], game_id) == ends + timedelta(hours=1)
    teller = storyteller(clients, game_id)
    assert view(teller, game_id)["you"]["owes"]["deadline"] == view(teller, game_id)["round"]["deadline"]


def test_changing_quiet_hours_moves_the_deadlines_of_games_already_under_way(players: list[Client]) -> None:
    clients = players[:3]
    game_id = started(clients, move_timeout_hours=10)
    before = _deadline(clients[0], game_id)
    teller = storyteller(clients, game_id)
    quiet = _quiet_around(before)
    assert teller.put("/players/me/notifications", {"quiet_hours": quiet}).status == 200
    moved = _deadline(clients[0], game_id)
    assert moved > before + timedelta(hours=1)
    # Quiet hours of a player the game is not waiting on change nothing.
    other = next(c for c in clients if c.player_id != teller.player_id)
    other.put("/players/me/notifications", {"quiet_hours": _quiet_around(moved)})
    assert _deadline(clients[0], game_id) == moved
    assert teller.put("/players/me/notifications", {"quiet_hours": None}).status == 200
    assert _deadline(clients[0], game_id) == before


def test_a_host_takes_their_quiet_hours_to_the_game_they_create(players: list[Client], table: Any) -> None:
    host = players[0]
    host.put(
        "/players/me/notifications",
        {"time_zone": "Europe/Paris", "quiet_hours": {"start": "22:00", "end": "08:00"}},
    )
    game_id = create_game(host)
    item = table.get_item(Key={"pk": f"GAME#{game_id}", "sk": "STATE"})["Item"]
    assert state_codec.unpack(item["state"].value).quiet == {
        host.player_id: SeatQuiet("Europe/Paris", QuietHours.parse("22:00", "08:00"))
    }


def test_the_inbox_shows_the_deadline_quiet_hours_moved(players: list[Client], feed: StreamFeed) -> None:
    clients = players[:3]
    game_id = started(clients, move_timeout_hours=10)
    teller = storyteller(clients, game_id)
    [entry] = inbox(teller, feed).body["games"]
    before = entry["deadline"]
    assert before == view(teller, game_id)["round"]["deadline"]
    teller.put("/players/me/notifications", {"quiet_hours": _quiet_around(_deadline(teller, game_id))})
    moved = view(teller, game_id)["round"]["deadline"]
    [entry] = inbox(teller, feed).body["games"]
    assert moved != before
    assert entry["deadline"] == moved
