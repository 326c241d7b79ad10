"""What every SessionStore adapter promises: sessions beside the profile, conditional token swaps that
keep the replaced hash only under a key, sign-outs that never resurrect, and the legacy session on the
profile."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.errors import VersionConflict
from app.core.records import PlayerRecord
from app.players.ports import LEGACY_SESSION, SessionRecord, SessionStore

STAMP = "2026-03-01T12:00:00.000+00:00"
LATER = "2026-03-01T13:30:00.000+00:00"


@pytest.fixture
def sessions(store: Any) -> SessionStore:
    # The combined ports object answers the session methods from its session part.
    result: SessionStore = store
    return result


def session(session_id: str = "s_0000000000000001", player_id: str = "p_1", **changes: Any) -> SessionRecord:
    fields: dict[str, Any] = {
        "device": "phone",
        "token_hash": "hash-1",
        "created_at": STAMP,
        "last_used_at": STAMP,
        "issued_at": STAMP,
    }
    return SessionRecord(player_id, session_id, **{**fields, **changes})


def test_a_session_is_read_back_with_its_profile_in_one_call(store: Any, sessions: SessionStore) -> None:
    player = PlayerRecord("p_1", "Ada", "", STAMP, STAMP)
    store.create_player(player)
    sessions.create_session(session())
    assert sessions.signed_in("p_1", "s_0000000000000001") == (player, session())
    assert sessions.signed_in("p_1", "s_0000000000000002") == (player, None)
    assert sessions.signed_in("p_2", "s_0000000000000001") == (None, None)


def test_a_session_id_cannot_be_created_twice(store: Any, sessions: SessionStore) -> None:
    sessions.create_session(session())
    with pytest.raises(VersionConflict):
        sessions.create_session(session(token_hash="other"))
    assert sessions.signed_in("p_1", "s_0000000000000001")[1] == session()


def test_sessions_are_listed_oldest_first_and_only_the_players(store: Any, sessions: SessionStore) -> None:
    store.create_player(PlayerRecord("p_1", "Ada", "", STAMP, STAMP))
    sessions.create_session(session("s_0000000000000002", created_at=LATER))
    sessions.create_session(session("s_0000000000000001"))
    sessions.create_session(session("s_0000000000000003", player_id="p_2"))
    assert [s.session_id for s in sessions.list_sessions("p_1")] == [
        "s_0000000000000001",
        "s_0000000000000002",
    ]
    assert sessions.list_sessions("p_9") == []


def test_a_token_swap_holds_only_on_the_old_hash_and_keeps_it_only_under_a_key(
    store: Any, sessions: SessionStore
) -> None:
    sessions.create_session(session())
    sid = "s_0000000000000001"
    assert not sessions.replace_token("p_1", sid, old_hash="wrong", new_hash="h2", issued_at=LATER)
    assert sessions.replace_token(
        "p_1", sid, old_hash="hash-1", new_hash="h2", issued_at=LATER, rotated_under="key-id"
    )
    assert sessions.signed_in("p_1", sid)[1] == session(
        token_hash="h2", issued_at=LATER, previous_hash="hash-1", rotated_under="key-id"
    )
    assert sessions.replace_token("p_1", sid, old_hash="h2", new_hash="h3", issued_at=LATER)
    assert sessions.signed_in("p_1", sid)[1] == session(token_hash="h3", issued_at=LATER)
    assert not sessions.replace_token(
        "p_1", "s_0000000000000009", old_hash="h3", new_hash="h4", issued_at=LATER
    )
    assert sessions.signed_in("p_1", "s_0000000000000009")[1] is None  # no item made by a failed swap


def test_a_sign_out_needs_the_session_and_its_hash_when_given(store: Any, sessions: SessionStore) -> None:
    sessions.create_session(session())
    sid = "s_0000000000000001"
    assert not sessions.delete_session("p_1", sid, token_hash="wrong")
    assert sessions.delete_session("p_1", sid, token_hash="hash-1")
    assert sessions.signed_in("p_1", sid)[1] is None
    assert not sessions.delete_session("p_1", sid)


def test_a_touch_moves_last_use_forward_only_and_never_resurrects(store: Any, sessions: SessionStore) -> None:
    sessions.create_session(session())
    sid = "s_0000000000000001"
    sessions.touch("p_1", sid, used_at=LATER, older_than=STAMP)  # not older than that: left alone
    assert sessions.signed_in("p_1", sid)[1] == session()
    sessions.touch("p_1", sid, used_at=LATER, older_than="2026-03-01T12:30:00.000+00:00")
    assert sessions.signed_in("p_1", sid)[1] == session(last_used_at=LATER)
    sessions.delete_session("p_1", sid)
    sessions.touch("p_1", sid, used_at=LATER, older_than=LATER)
    assert sessions.signed_in("p_1", sid)[1] is None
    assert sessions.list_sessions("p_1") == []


def test_a_profile_with_a_token_hash_is_the_legacy_session(store: Any, sessions: SessionStore) -> None:
    store.create_player(PlayerRecord("p_1", "Ada", "legacy-hash", STAMP))
    player, legacy = sessions.signed_in("p_1", LEGACY_SESSION)
    assert player is not None
    assert player.name == "Ada"
    assert legacy is not None
    assert (legacy.session_id, legacy.token_hash, legacy.created_at, legacy.issued_at) == (
        LEGACY_SESSION,
        "legacy-hash",
        STAMP,
        STAMP,
    )
    sessions.create_session(session(created_at=LATER))
    assert [s.session_id for s in sessions.list_sessions("p_1")] == [LEGACY_SESSION, "s_0000000000000001"]


def test_the_legacy_session_rotates_touches_and_signs_out_on_the_profile(
    store: Any, sessions: SessionStore
) -> None:
    store.create_player(PlayerRecord("p_1", "Ada", "legacy-hash", STAMP))
    assert sessions.replace_token(
        "p_1", LEGACY_SESSION, old_hash="legacy-hash", new_hash="h2", issued_at=LATER, rotated_under="k"
    )
    _, legacy = sessions.signed_in("p_1", LEGACY_SESSION)
    assert legacy is not None
    assert (legacy.token_hash, legacy.issued_at, legacy.previous_hash, legacy.rotated_under) == (
        "h2",
        LATER,
        "legacy-hash",
        "k",
    )
    sessions.touch("p_1", LEGACY_SESSION, used_at=LATER, older_than=LATER)
    assert store.get_player("p_1").name == "Ada"
    assert not sessions.delete_session("p_1", LEGACY_SESSION, token_hash="legacy-hash")
    assert sessions.delete_session("p_1", LEGACY_SESSION, token_hash="h2")
    assert sessions.signed_in("p_1", LEGACY_SESSION)[1] is None
    assert sessions.list_sessions("p_1") == []
    assert not sessions.delete_session("p_1", LEGACY_SESSION)
    player = store.get_player("p_1")
    assert player is not None
    assert player.name == "Ada"


def test_a_player_without_a_legacy_token_has_no_legacy_session(store: Any, sessions: SessionStore) -> None:
    store.create_player(PlayerRecord("p_1", "Ada", "", STAMP, STAMP))
    assert sessions.signed_in("p_1", LEGACY_SESSION)[1] is None
    assert not sessions.delete_session("p_1", LEGACY_SESSION)
    assert not sessions.replace_token("p_1", LEGACY_SESSION, old_hash="", new_hash="h", issued_at=LATER)


def test_a_rename_changes_only_the_name(store: Any) -> None:
    store.create_player(PlayerRecord("p_1", "Ada", "legacy-hash", STAMP))
    assert store.rename_player("p_1", "Ada L.")
    assert store.get_player("p_1") == PlayerRecord("p_1", "Ada L.", "legacy-hash", STAMP)
    assert not store.rename_player("p_2", "Eve")
    assert store.get_player("p_2") is None
