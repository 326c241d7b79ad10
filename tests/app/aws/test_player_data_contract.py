"""What every PlayerStore adapter promises about erasing a player: everything under their partition,
whatever its kind, the email they own, and nobody else's items; the profile and sessions last."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from app.aws.dynamodb.players import DynamoPlayerStore
from app.core.records import Membership, PlayerRecord
from app.notify.devices.channels import Platform
from app.notify.ports import Device
from app.players.addresses import address_id
from app.players.ports import SessionRecord
from app.webhooks.records import WebhookRecord
from dixit.state import Phase
from tests.support.aws import TABLE
from tests.support.services import AllTablePorts

STAMP = "2026-03-01T12:00:00.000+00:00"


def _everything(store: Any, player_id: str) -> None:
    """A profile, two sessions, a webhook, a device, mutes, and a finished game in the history."""
    store.create_player(PlayerRecord(player_id, "Ada", "", STAMP, STAMP))
    for n in (1, 2):
        store.create_session(
            SessionRecord(player_id, f"s_000000000000000{n}", "phone", "h", STAMP, STAMP, STAMP)
        )
    hook = WebhookRecord(
        f"wh_{player_id[-16:]:0>16}", player_id, "https://x.example", ("turn.owed",), "sec", STAMP
    )
    assert store.create_webhook(hook, max_per_player=5)
    store.put_device(player_id, Device("phone-1", Platform.FCM, "arn:endpoint", STAMP))
    store.set_muted(player_id, True)


def _gone(store: Any, player_id: str) -> None:
    assert store.get_player(player_id) is None
    assert store.signed_in(player_id, "s_0000000000000001") == (None, None)
    assert store.list_sessions(player_id) == []
    assert store.list_webhooks(player_id) == []
    assert store.devices(player_id) == []
    assert store.preferences(player_id).muted is False


def test_everything_under_the_partition_goes_and_nobody_elses(store: Any) -> None:
    _everything(store, "p_0000000000000001")
    _everything(store, "p_0000000000000002")
    erased = store.delete_player_data("p_0000000000000001")
    assert erased >= 6  # profile, two sessions, webhook, device, mutes
    _gone(store, "p_0000000000000001")
    assert store.get_player("p_0000000000000002") is not None
    assert len(store.list_sessions("p_0000000000000002")) == 2
    assert store.devices("p_0000000000000002") != []
    assert store.list_webhooks("p_0000000000000002") != []


def test_erasing_again_or_erasing_nobody_deletes_nothing(store: Any) -> None:
    _everything(store, "p_0000000000000001")
    store.delete_player_data("p_0000000000000001")
    assert store.delete_player_data("p_0000000000000001") == 0
    assert store.delete_player_data("p_0000000000000009") == 0


def test_a_finished_game_files_nothing_for_a_player_whose_membership_is_gone(store: Any) -> None:
    entry = Membership(
        "p_0000000000000001", "g_0000000000000001", Phase.FINISHED, False, None, 3, (), 3, None, STAMP
    )
    store.file_finished([entry])
    assert store.finished_memberships("p_0000000000000001", 20, None) == ([], None)


def _table() -> Any:
    return boto3.resource("dynamodb").Table(TABLE)


def _partition(pk: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = _table().query(
        KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": pk}
    )["Items"]
    return items


@pytest.fixture
def dynamo(store: Any) -> AllTablePorts:
    if not isinstance(store, AllTablePorts):
        pytest.skip("the table's own items (any sort key, the email item): DynamoDB only")
    return store


# Where the profile's confirmed address is owned (app.players.addresses).
ADA = address_id("ada@example.com")


def test_items_of_any_kind_and_the_owned_email_go_on_dynamodb(dynamo: AllTablePorts) -> None:
    _everything(dynamo, "p_0000000000000001")
    table = _table()
    table.update_item(
        Key={"pk": "PLAYER#p_0000000000000001", "sk": "PROFILE"},
        UpdateExpression="SET email = :e",
        ExpressionAttributeValues={":e": "ada@example.com"},
    )
    table.put_item(Item={"pk": f"EMAIL#{ADA}", "sk": "OWNER", "player_id": "p_0000000000000001"})
    table.put_item(Item={"pk": "PLAYER#p_0000000000000001", "sk": "SOMETHING#new"})  # a kind added later
    for n in range(30):  # more than one batch
        table.put_item(Item={"pk": "PLAYER#p_0000000000000001", "sk": f"DONE#{STAMP}#g_{n:016d}"})

    DynamoPlayerStore(TABLE).delete_player_data("p_0000000000000001")
    assert _partition("PLAYER#p_0000000000000001") == []
    assert _partition(f"EMAIL#{ADA}") == []


def test_an_email_that_names_another_owner_is_kept(dynamo: AllTablePorts) -> None:
    _everything(dynamo, "p_0000000000000001")
    table = _table()
    table.update_item(
        Key={"pk": "PLAYER#p_0000000000000001", "sk": "PROFILE"},
        UpdateExpression="SET email = :e",
        ExpressionAttributeValues={":e": "ada@example.com"},
    )
    table.put_item(Item={"pk": f"EMAIL#{ADA}", "sk": "OWNER", "player_id": "p_0000000000000002"})
    DynamoPlayerStore(TABLE).delete_player_data("p_0000000000000001")
    assert _partition("PLAYER#p_0000000000000001") == []
    assert len(_partition(f"EMAIL#{ADA}")) == 1
