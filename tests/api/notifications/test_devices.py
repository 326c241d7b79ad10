"""Mobile push devices: registering SNS platform endpoints, pushing to them, cleaning up disabled ones."""

from __future__ import annotations

import boto3
import pytest

from app.core.settings import get_settings
from tests.support.aws import TABLE

from ..client import Client
from ..helpers import assert_problem, started, storyteller
from ..sns_inbox import endpoint_exists, endpoint_messages, make_topic, received, subscribe_queue
from ..stream import StreamFeed


@pytest.fixture
def push(aws: None, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Platform applications for FCM and APNs in moto, given to the API as the template would."""
    sns = boto3.client("sns")
    apps = {
        "FCM": sns.create_platform_application(
            Name="dixit-fcm", Platform="GCM", Attributes={"PlatformCredential": "server-key"}
        )["PlatformApplicationArn"],
        "APNS": sns.create_platform_application(
            Name="dixit-apns",
            Platform="APNS",
            Attributes={"PlatformCredential": "private-key", "PlatformPrincipal": "certificate"},
        )["PlatformApplicationArn"],
    }
    for platform, arn in apps.items():
        monkeypatch.setenv(f"{platform}_PLATFORM_APPLICATION_ARN", arn)
    get_settings.cache_clear()
    return apps


def test_a_new_device_answers_201_with_its_location_and_a_refresh_200_without(
    players: list[Client], push: dict[str, str]
) -> None:
    me = players[0]
    first = me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok-1"})
    assert first.status == 201, first.raw
    assert first.headers["Location"] == "/players/me/devices/phone-1"
    again = me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok-1"})
    assert again.status == 200
    assert "Location" not in again.headers


def test_a_push_token_with_a_control_character_is_422_before_it_reaches_sns(
    players: list[Client], push: dict[str, str]
) -> None:
    reply = players[0].put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok\x12"})
    assert_problem(reply, 422, "validation_error")


def register(client: Client, device_id: str, platform: str, token: str) -> None:
    reply = client.put(f"/players/me/devices/{device_id}", {"platform": platform, "push_token": token})
    assert reply.status == 201, reply.raw


def endpoint_of(client: Client, device_id: str) -> str:
    item = boto3.client("dynamodb").get_item(
        TableName=TABLE,
        Key={"pk": {"S": f"PLAYER#{client.player_id}"}, "sk": {"S": f"DEVICE#{device_id}"}},
    )["Item"]
    arn: str = item["endpoint_arn"]["S"]
    return arn


def test_without_a_platform_application_registering_is_refused_as_not_configured(
    players: list[Client],
) -> None:
    reply = players[0].put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok-1"})
    body = assert_problem(reply, 501, "push_not_configured")
    assert "fcm" in body["detail"]


def test_a_platform_without_its_application_is_refused_while_others_work(
    players: list[Client], push: dict[str, str]
) -> None:
    reply = players[0].put("/players/me/devices/ipad", {"platform": "apns_sandbox", "push_token": "abc"})
    assert_problem(reply, 501, "push_not_configured")
    assert players[0].put("/players/me/devices/ipad", {"platform": "apns", "push_token": "abc"}).status == 201


def test_registering_creates_an_endpoint_and_registering_again_keeps_it(
    players: list[Client], push: dict[str, str]
) -> None:
    me = players[0]
    first = me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok-1"})
    assert first.status == 201, first.raw
    assert first.body["device_id"] == "phone-1"
    assert first.body["platform"] == "fcm"
    assert "push_token" not in first.body
    arn = endpoint_of(me, "phone-1")
    assert endpoint_exists(arn)

    again = me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok-1"})
    assert again.status == 200
    assert again.body["registered_at"] == first.body["registered_at"]
    assert endpoint_of(me, "phone-1") == arn


def test_a_new_token_for_a_device_replaces_its_endpoint(players: list[Client], push: dict[str, str]) -> None:
    me = players[0]
    me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "old-token"})
    old = endpoint_of(me, "phone-1")
    assert me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "new-token"}).status == 200
    assert endpoint_of(me, "phone-1") != old
    assert not endpoint_exists(old)


def test_devices_are_listed_to_their_owner_only_and_deleted_with_their_endpoint(
    players: list[Client], push: dict[str, str]
) -> None:
    me, other = players[0], players[1]
    me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok-1"})
    me.put("/players/me/devices/tablet", {"platform": "apns", "push_token": "tok-2"})
    arn = endpoint_of(me, "tablet")

    listed = me.get("/players/me/devices")
    assert listed.status == 200
    assert sorted((d["device_id"], d["platform"]) for d in listed.body["devices"]) == [
        ("phone-1", "fcm"),
        ("tablet", "apns"),
    ]
    assert other.get("/players/me/devices").body == {"devices": []}
    assert_problem(other.delete("/players/me/devices/tablet"), 404, "device_not_found")

    gone = me.delete("/players/me/devices/tablet")
    assert gone.status == 204
    assert not endpoint_exists(arn)
    assert [d["device_id"] for d in me.get("/players/me/devices").body["devices"]] == ["phone-1"]
    assert_problem(me.delete("/players/me/devices/tablet"), 404, "device_not_found")


@pytest.mark.parametrize(
    ("device_id", "body"),
    [
        ("phone-1", {"platform": "windows", "push_token": "t"}),
        ("phone-1", {"platform": "fcm", "push_token": ""}),
        ("phone-1", {"platform": "fcm", "push_token": "two words"}),
        ("phone-1", {"platform": "fcm"}),
        ("phone-1", {"platform": "fcm", "push_token": "t", "extra": 1}),
        ("x" * 65, {"platform": "fcm", "push_token": "t"}),
        ("a%20b", {"platform": "fcm", "push_token": "t"}),
    ],
)
def test_malformed_registrations_are_422(
    players: list[Client], push: dict[str, str], device_id: str, body: dict[str, object]
) -> None:
    assert_problem(players[0].put(f"/players/me/devices/{device_id}", body), 422, "validation_error")


def test_device_routes_need_a_token(aws: None) -> None:
    anonymous = Client("nobody")
    assert_problem(anonymous.get("/players/me/devices"), 401, "missing_token")
    assert_problem(
        anonymous.put("/players/me/devices/p", {"platform": "fcm", "push_token": "t"}), 401, "missing_token"
    )


def test_a_players_turn_is_pushed_to_each_of_their_devices(
    players: list[Client], push: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_topic(monkeypatch)
    feed = StreamFeed(TABLE)
    group = players[:3]
    for player in group:
        register(player, "phone", "fcm", f"fcm-{player.player_id}")
        register(player, "ipad", "apns", f"apns-{player.player_id}")
    game_id = started(group)
    teller = storyteller(group, game_id)

    assert feed.deliver() == {"batchItemFailures": []}

    (fcm,) = endpoint_messages(endpoint_of(teller, "phone"))
    (apns,) = endpoint_messages(endpoint_of(teller, "ipad"))
    assert fcm["default"] == apns["default"]
    assert '"path": "/games/' in fcm["GCM"]
    assert f'"thread-id": "{game_id}"' in apns["APNS"]
    for other in group:
        if other is not teller:
            assert endpoint_messages(endpoint_of(other, "phone")) == []


def test_a_disabled_endpoint_is_removed_with_its_device_and_not_retried(
    players: list[Client], push: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    topic = make_topic(monkeypatch)
    inbox = subscribe_queue(topic, "device-cleanup")
    feed = StreamFeed(TABLE)
    group = players[:3]
    for player in group:
        register(player, "phone", "fcm", f"fcm-{player.player_id}")
        register(player, "old-phone", "fcm", f"old-{player.player_id}")
    disabled = {p.player_id: endpoint_of(p, "old-phone") for p in group}
    for arn in disabled.values():
        # What SNS does when the platform says the app is gone.
        boto3.client("sns").set_endpoint_attributes(EndpointArn=arn, Attributes={"Enabled": "false"})
    game_id = started(group)
    teller = storyteller(group, game_id)

    assert feed.deliver() == {"batchItemFailures": []}

    assert not endpoint_exists(disabled[teller.player_id])
    assert [d["device_id"] for d in teller.get("/players/me/devices").body["devices"]] == ["phone"]
    assert len(endpoint_messages(endpoint_of(teller, "phone"))) == 1
    assert [m.attributes["player_id"] for m in received(inbox)] == [teller.player_id]
    # Players who were not told keep their devices until a push finds them disabled.
    assert all(endpoint_exists(arn) for pid, arn in disabled.items() if pid != teller.player_id)


def test_a_player_may_register_at_most_ten_devices(players: list[Client], push: dict[str, str]) -> None:
    me = players[0]
    for n in range(10):
        assert me.put(f"/players/me/devices/d{n}", {"platform": "fcm", "push_token": f"t{n}"}).status == 201
    assert_problem(
        me.put("/players/me/devices/d10", {"platform": "fcm", "push_token": "t10"}), 409, "too_many_devices"
    )
    assert me.put("/players/me/devices/d3", {"platform": "fcm", "push_token": "t3-new"}).status == 200


def test_a_token_registered_by_another_player_moves_to_the_new_player_and_leaves_the_old_device(
    players: list[Client], push: dict[str, str]
) -> None:
    before, after = players[0], players[1]
    register(before, "family-tablet", "fcm", "shared-install")
    arn = endpoint_of(before, "family-tablet")

    register(after, "tablet", "fcm", "shared-install")

    assert endpoint_of(after, "tablet") == arn
    attributes = boto3.client("sns").get_endpoint_attributes(EndpointArn=arn)["Attributes"]
    assert attributes["CustomUserData"] == after.player_id
    assert before.get("/players/me/devices").body == {"devices": []}
