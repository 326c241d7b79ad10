"""A private invitation from a blocked player is refused quietly: a rematch opened by a player you blocked
(or who blocked you) never reaches you, and neither of you is told; the others hear of it as ever."""

from __future__ import annotations

import pytest

from tests.support.aws import TABLE
from tests.support.mail import Mailroom, recorded_mail

from ..client import Client
from ..helpers import started
from ..json_bot import play_to_the_end
from ..stream import StreamFeed, invoke_notify


@pytest.fixture
def mail(aws: None, monkeypatch: pytest.MonkeyPatch) -> Mailroom:
    monkeypatch.setenv("UNSUBSCRIBE_SECRET", "test-unsubscribe-secret")
    return recorded_mail(monkeypatch)


def rematch_mails(mail: Mailroom, address: str) -> list[str]:
    return [m.text for m in mail.mailer.to(address) if "a rematch opened by" in m.subject]


def test_a_rematch_opened_by_a_blocked_player_reaches_neither_side_of_a_block(
    mail: Mailroom, players: list[Client]
) -> None:
    opener, blocker, blocked = players[:3]  # and a fourth, who blocked nobody
    for n, player in enumerate(players[:4]):
        assert player.post("/players/me/email", {"email": f"p{n}@example.com"}).status == 202
        assert (
            player.post("/players/me/email/verify", {"code": mail.code_for(f"p{n}@example.com")}).status
            == 200
        )
    game_id = started(players[:4], target_score=1)
    assert play_to_the_end(players[:4], game_id, seed=3)["phase"] == "finished"
    assert blocker.put(f"/players/me/blocks/{opener.player_id}").status == 204  # the invitee's own block
    assert opener.put(f"/players/me/blocks/{blocked.player_id}").status == 204  # the opener's
    feed = StreamFeed(TABLE)

    assert opener.post(f"/games/{game_id}/rematch").status == 200
    assert invoke_notify(feed.event()) == {"batchItemFailures": []}
    assert len(rematch_mails(mail, "p3@example.com")) == 1
    assert rematch_mails(mail, "p1@example.com") == []
    assert rematch_mails(mail, "p2@example.com") == []
