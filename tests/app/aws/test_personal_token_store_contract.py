"""What every PersonalTokenStore adapter promises (DynamoDB on moto, in memory): tokens beside the profile,
a cap that holds, revocations that are final, last uses that never resurrect a token, and erasure."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.errors import VersionConflict
from app.core.records import PlayerRecord
from app.players.ports import PersonalTokenRecord

STAMP = "2026-03-01T12:00:00.000+00:00"
LATER = "2026-03-01T12:05:00.000+00:00"
PLAYER = PlayerRecord("p_1", "Ada", "", STAMP, STAMP)


def token(number: int = 1, player_id: str = "p_1", **changes: Any) -> PersonalTokenRecord:
    fields: dict[str, Any] = {
        "name": f"bot {number}",
        "scopes": ("games:read", "games:play"),
        "token_hash": f"hash-{number}",
        "created_at": STAMP,
    }
    return PersonalTokenRecord(player_id, f"t_{number:016x}", **{**fields, **changes})


@pytest.fixture
def ada(store: Any) -> Any:
    store.create_player(PLAYER)
    return store


def test_a_token_is_read_back_with_its_profile_in_one_call(ada: Any) -> None:
    assert ada.create_personal_token(token(), limit=20)
    assert ada.personal_token("p_1", token().token_id) == (PLAYER, token())
    assert ada.personal_token("p_1", token(2).token_id) == (PLAYER, None)
    assert ada.personal_token("p_2", token().token_id) == (None, None)


def test_a_token_id_cannot_be_created_twice(ada: Any) -> None:
    assert ada.create_personal_token(token(), limit=20)
    with pytest.raises(VersionConflict):
        ada.create_personal_token(token(token_hash="other"), limit=20)
    assert ada.personal_token("p_1", token().token_id)[1] == token()
    assert len(ada.list_personal_tokens("p_1")) == 1


def test_the_cap_holds_and_a_revocation_frees_a_place(ada: Any) -> None:
    assert ada.create_personal_token(token(1), limit=2)
    assert ada.create_personal_token(token(2), limit=2)
    assert not ada.create_personal_token(token(3), limit=2)
    assert ada.personal_token("p_1", token(3).token_id)[1] is None
    assert ada.delete_personal_token("p_1", token(1).token_id)
    assert ada.create_personal_token(token(3), limit=2)


def test_no_token_is_made_for_a_player_without_a_profile(store: Any) -> None:
    assert not store.create_personal_token(token(player_id="p_9"), limit=20)
    assert store.list_personal_tokens("p_9") == []


def test_tokens_are_listed_oldest_first_and_only_the_players(ada: Any) -> None:
    ada.create_player(PlayerRecord("p_2", "Bob", "", STAMP, STAMP))
    ada.create_personal_token(token(2, created_at=LATER), limit=20)
    ada.create_personal_token(token(1), limit=20)
    ada.create_personal_token(token(3, player_id="p_2"), limit=20)
    assert [t.token_id for t in ada.list_personal_tokens("p_1")] == [token(1).token_id, token(2).token_id]
    assert ada.list_personal_tokens("p_3") == []


def test_a_revocation_is_final_and_counts_once(ada: Any) -> None:
    ada.create_personal_token(token(), limit=1)
    assert ada.delete_personal_token("p_1", token().token_id)
    assert not ada.delete_personal_token("p_1", token().token_id)
    assert ada.personal_token("p_1", token().token_id) == (PLAYER, None)
    # A second delete counted nothing off: the cap of 1 still lets exactly one in.
    assert ada.create_personal_token(token(2), limit=1)
    assert not ada.create_personal_token(token(3), limit=1)


def test_a_last_use_is_kept_only_when_newer_and_never_brings_a_token_back(ada: Any) -> None:
    tid = token().token_id
    ada.create_personal_token(token(), limit=20)
    ada.touch_personal_token("p_1", tid, used_at=LATER, older_than=LATER)
    assert ada.personal_token("p_1", tid)[1].last_used_at == LATER
    ada.touch_personal_token("p_1", tid, used_at="2026-03-01T12:06:00.000+00:00", older_than=STAMP)
    assert ada.personal_token("p_1", tid)[1].last_used_at == LATER
    ada.delete_personal_token("p_1", tid)
    ada.touch_personal_token("p_1", tid, used_at="2026-03-01T13:00:00.000+00:00", older_than="9999")
    assert ada.personal_token("p_1", tid)[1] is None
    assert ada.list_personal_tokens("p_1") == []


def test_erasing_the_player_takes_their_tokens(ada: Any) -> None:
    ada.create_personal_token(token(1), limit=20)
    ada.create_personal_token(token(2), limit=20)
    ada.delete_player_data("p_1")
    assert ada.list_personal_tokens("p_1") == []
    assert ada.personal_token("p_1", token(1).token_id) == (None, None)
