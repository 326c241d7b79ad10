"""app.talk.reports over the in-memory doubles: a report counted once per reporter, the host hides."""

from __future__ import annotations

import pytest

from app.core.errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited
from app.core.rates import Rate
from app.services import Services
from app.talk import limits, messages, reports
from app.talk.schemas import page_out
from tests.fakes.talk import MemoryTalkStore

from ..games.helpers import started


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    monkeypatch.setattr(reports, "count", lambda name, value=1: seen.append(name))
    return seen


def test_a_report_is_stored_with_its_reporter_counted_once_and_the_host_hides_the_message(
    services: Services, counted: list[str]
) -> None:
    record, (host, ada, bob) = started(services, 3)
    said = messages.post_message(services, ada, record.game_id, "the cat one is mine")
    assert reports.report(services, bob, record.game_id, said.message_id, "spoiler")
    assert not reports.report(services, bob, record.game_id, said.message_id, "spoiler")
    assert counted == ["MessagesReported"]
    talk = services.talk
    assert isinstance(talk, MemoryTalkStore)
    assert set(talk.reports) == {(record.game_id, said.message_id, bob.player_id)}
    # Only the host learns it was reported; nobody else, the author included.
    as_host = page_out(messages.list_messages(services, host, record.game_id, before=None, limit=5))
    as_author = page_out(messages.list_messages(services, ada, record.game_id, before=None, limit=5))
    assert (as_host.messages[0].reported, as_author.messages[0].reported) == (True, False)
    with pytest.raises(Forbidden):
        reports.hide(services, ada, record.game_id, said.message_id)
    reports.hide(services, host, record.game_id, said.message_id)
    for reader in (host, ada, bob):
        shown = page_out(messages.list_messages(services, reader, record.game_id, before=None, limit=5))
        assert (shown.messages[0].text, shown.messages[0].hidden_by) == (None, "host")


def test_what_cannot_be_reported_or_hidden(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    record, (host, ada, bob) = started(services, 3)
    said = messages.post_message(services, ada, record.game_id, "hello")
    with pytest.raises(InvalidInput):
        reports.report(services, ada, record.game_id, said.message_id, "spam")
    with pytest.raises(NotFound):
        reports.report(services, bob, record.game_id, "m_0000000000000deadbeef", "spam")
    with pytest.raises(Conflict) as unreported:
        reports.hide(services, host, record.game_id, said.message_id)
    assert unreported.value.code == "message_not_reported"
    monkeypatch.setattr(limits, "REPORTS_PER_DAY", Rate("r", 1, 86_400, "too_many_reports", "today"))
    other = messages.post_message(services, ada, record.game_id, "again")
    reports.report(services, bob, record.game_id, said.message_id, "spam")
    with pytest.raises(RateLimited):
        reports.report(services, bob, record.game_id, other.message_id, "spam")
    # Per reporter: the host still reports.
    assert reports.report(services, host, record.game_id, other.message_id, "spam")
