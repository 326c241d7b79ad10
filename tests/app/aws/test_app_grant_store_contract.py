"""What every AppGrantStore and CodeStore adapter promises (DynamoDB on moto, in memory): grants beside
the profile and only while it exists, one per app, a rotation only from the current refresh hash,
revocations that are final (and kill the codes not yet exchanged), last uses that never resurrect a grant,
erasure; a grant made only from the newest code the player gave the app; a code taken exactly once."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.records import PlayerRecord
from app.oauth.ports import AuthorizationCode
from app.players.ports import AppGrantRecord

STAMP = "2026-03-01T12:00:00.000+00:00"
LATER = "2026-03-01T12:05:00.000+00:00"
PLAYER = PlayerRecord("p_1", "Ada", "", STAMP, STAMP)


def grant(number: int = 1, player_id: str = "p_1", **changes: Any) -> AppGrantRecord:
    fields: dict[str, Any] = {
        "client_id": f"app {number}",
        "scopes": ("games:read", "games:play"),
        "redirect_uri": "http://127.0.0.1:8765/cb",
        "created_at": STAMP,
        "access_hash": f"access-{number}",
        "access_expires_at": 1_800_000_000,
        "refresh_hash": f"refresh-{number}",
    }
    return AppGrantRecord(player_id, f"a_{number:016x}", **{**fields, **changes})


def put(store: Any, record: AppGrantRecord, code_hash: str = "code-hash") -> bool:
    """Note `code_hash` as the app's newest code, then write the grant from it (as an exchange does)."""
    store.note_app_code(record.player_id, record.grant_id, code_hash, 1_800_000_300)
    return bool(store.put_app_grant(record, code_hash=code_hash))


@pytest.fixture
def ada(store: Any) -> Any:
    store.create_player(PLAYER)
    return store


def test_a_grant_is_read_back_with_its_profile_in_one_call(ada: Any) -> None:
    assert put(ada, grant())
    assert ada.app_grant("p_1", grant().grant_id) == (PLAYER, grant())
    assert ada.app_grant("p_1", grant(2).grant_id) == (PLAYER, None)
    assert ada.app_grant("p_2", grant().grant_id) == (None, None)


def test_no_grant_is_written_for_a_player_without_a_profile(store: Any) -> None:
    assert not put(store, grant(player_id="p_9"))
    assert store.app_grant("p_9", grant().grant_id) == (None, None)


def test_a_grant_put_again_replaces_the_earlier_one(ada: Any) -> None:
    assert put(ada, grant(rotated=("old",)))
    fresh = grant(scopes=("games:read",), refresh_hash="new-refresh")
    assert put(ada, fresh)
    assert ada.list_app_grants("p_1") == [fresh]


def test_grants_are_listed_oldest_first(ada: Any) -> None:
    assert put(ada, grant(2, created_at=LATER))
    assert put(ada, grant(1))
    assert [g.grant_id for g in ada.list_app_grants("p_1")] == [grant(1).grant_id, grant(2).grant_id]
    assert ada.list_app_grants("p_2") == []


def test_a_rotation_needs_the_current_refresh_hash_and_keeps_the_rest(ada: Any) -> None:
    assert put(ada, grant())
    ada.touch_app_grant("p_1", grant().grant_id, used_at=STAMP, older_than=STAMP)
    first = grant(last_used_at=STAMP)
    renewed = replace(
        first, access_hash="a2", access_expires_at=1_800_003_600, refresh_hash="r2", rotated=("refresh-1",)
    )
    assert ada.rotate_app_grant(first, renewed)
    assert ada.app_grant("p_1", first.grant_id)[1] == renewed
    assert not ada.rotate_app_grant(first, replace(renewed, refresh_hash="r3"))
    assert ada.app_grant("p_1", first.grant_id)[1] == renewed


def test_of_two_rotations_from_one_refresh_hash_only_the_first_lands(ada: Any) -> None:
    # Sequential, not threads: moto applies conditions without DynamoDB's per-item serialisation, so a
    # thread race would test moto. The condition (refresh_hash = :old) is what makes the race safe.
    first = grant()
    assert put(ada, first)
    one, other = (replace(first, refresh_hash=f"r-{n}", rotated=("refresh-1",)) for n in (1, 2))
    assert ada.rotate_app_grant(first, one)
    assert not ada.rotate_app_grant(first, other)
    assert ada.app_grant("p_1", first.grant_id)[1] == one


def test_a_revoked_grant_stays_revoked(ada: Any) -> None:
    assert put(ada, grant())
    assert ada.delete_app_grant("p_1", grant().grant_id)
    assert not ada.delete_app_grant("p_1", grant().grant_id)
    ada.touch_app_grant("p_1", grant().grant_id, used_at=LATER, older_than=STAMP)
    assert not ada.rotate_app_grant(grant(), grant(refresh_hash="r2"))
    assert ada.app_grant("p_1", grant().grant_id) == (PLAYER, None)


def test_a_last_use_is_written_only_over_an_older_one(ada: Any) -> None:
    assert put(ada, grant())
    ada.touch_app_grant("p_1", grant().grant_id, used_at=STAMP, older_than=STAMP)
    assert ada.app_grant("p_1", grant().grant_id)[1] == grant(last_used_at=STAMP)
    ada.touch_app_grant("p_1", grant().grant_id, used_at=LATER, older_than=STAMP)
    assert ada.app_grant("p_1", grant().grant_id)[1] == grant(last_used_at=STAMP)
    ada.touch_app_grant("p_1", grant().grant_id, used_at=LATER, older_than=LATER)
    assert ada.app_grant("p_1", grant().grant_id)[1] == grant(last_used_at=LATER)


def test_erasing_the_player_erases_their_grants(ada: Any) -> None:
    assert put(ada, grant(1))
    assert put(ada, grant(2))
    ada.delete_player_data("p_1")
    assert ada.list_app_grants("p_1") == []
    assert ada.app_grant("p_1", grant(1).grant_id) == (None, None)


def test_a_grant_is_written_only_from_the_newest_code_given_to_the_app(ada: Any) -> None:
    gid = grant().grant_id
    ada.note_app_code("p_1", gid, "first", 1_800_000_300)
    ada.note_app_code("p_1", gid, "second", 1_800_000_300)
    assert not ada.put_app_grant(grant(), code_hash="first")  # superseded by the second consent
    assert ada.app_grant("p_1", gid) == (PLAYER, None)
    assert not ada.put_app_grant(grant(), code_hash="never noted")
    assert ada.put_app_grant(grant(), code_hash="second")
    assert not ada.put_app_grant(grant(refresh_hash="again"), code_hash="second")  # the note is used up
    assert ada.app_grant("p_1", gid) == (PLAYER, grant())
    # Another app's note is its own.
    ada.note_app_code("p_1", grant(2).grant_id, "first", 1_800_000_300)
    assert ada.put_app_grant(grant(2), code_hash="first")


def test_a_grant_seeded_without_a_code_needs_only_the_profile(ada: Any) -> None:
    assert ada.put_app_grant(grant())
    assert not ada.put_app_grant(grant(player_id="p_9"))
    assert ada.list_app_grants("p_1") == [grant()]


def test_revoking_a_grant_kills_the_code_noted_since(ada: Any) -> None:
    assert put(ada, grant(), "first")
    ada.note_app_code("p_1", grant().grant_id, "kept", 1_800_000_300)
    assert ada.delete_app_grant("p_1", grant().grant_id)
    assert not ada.put_app_grant(grant(), code_hash="kept")
    assert ada.app_grant("p_1", grant().grant_id) == (PLAYER, None)


def test_erasing_the_player_erases_the_noted_codes(ada: Any) -> None:
    ada.note_app_code("p_1", grant().grant_id, "kept", 1_800_000_300)
    ada.delete_player_data("p_1")
    ada.create_player(PLAYER)
    assert not ada.put_app_grant(grant(), code_hash="kept")


def test_a_code_is_taken_exactly_once(store: Any) -> None:
    # A conditional delete that answers the deleted item: of two requests, the second finds nothing.
    code = AuthorizationCode("h" * 64, "p_1", "app", "http://127.0.0.1/cb", ("games:read",), "c" * 43, 1_800)
    store.put_code(code)
    assert store.take_code(code.code_hash) == code
    assert store.take_code(code.code_hash) is None
    assert store.take_code("unknown") is None
