"""Reporting over HTTP: a report reaches the metric, the host hides the message for everyone."""

from __future__ import annotations

import pytest

from app.talk import reports
from tests.support.clock import Clock

from ..client import Client
from ..helpers import assert_problem, lobby
from .talking import say, talk


def test_a_report_reaches_the_metric_and_the_host_hides_the_message(
    players: list[Client],
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted: list[str] = []
    monkeypatch.setattr(reports, "count", lambda name, value=1: counted.append(name))
    host, ada, bob = players[:3]
    game_id = lobby([host, ada, bob])
    said = str(say(ada, game_id, "rude words")["message_id"])
    path = f"/games/{game_id}/messages/{said}"
    assert_problem(host.post(f"{path}/hide"), 409, "message_not_reported")
    reply = bob.post(f"{path}/reports", {"reason": "abuse"})
    assert (reply.status, reply.body) == (200, {"message_id": said, "new": True})
    assert counted == ["MessagesReported"]
    assert_problem(ada.post(f"{path}/reports", {"reason": "abuse"}), 422, "cannot_report_yourself")
    assert_problem(bob.post(f"{path}/reports", {"reason": "because"}), 422, "validation_error")
    assert talk(host, game_id)["messages"][0]["reported"] is True  # type: ignore[index]
    assert talk(bob, game_id)["messages"][0]["reported"] is False  # type: ignore[index]
    assert_problem(bob.post(f"{path}/hide"), 403, "not_host")
    assert host.post(f"{path}/hide").status == 204
    for reader in (host, ada, bob):
        (shown,) = talk(reader, game_id)["messages"]  # type: ignore[misc]
        assert (shown["text"], shown["hidden"], shown["hidden_by"]) == (None, True, "host")
    assert_problem(players[5].post(f"{path}/reports", {"reason": "spam"}), 403, "not_a_member")
    # Their author's export still shows what is stored, with the mark.
    (exported,) = ada.get("/players/me/export").body["messages"]
    assert (exported["text"], exported["hidden_by"]) == ("rude words", "host")
