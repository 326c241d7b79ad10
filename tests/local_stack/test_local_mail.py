"""The local stack's mailbox: what the app sends through SES on the twin, printed and at GET /_local/mail.

The unit tests drive `local_stack.mail` alone; the last ones run `python -m local_stack serve` (as
tests/local_stack/test_local_serve.py does) and send through the app's own SES adapter to its twin.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from app.aws.ses import SesMailer
from app.notify.email.templates import sign_in_code, verify_email
from local_stack import LOCAL_NAMES
from local_stack.gateway import Gateway
from local_stack.mail import LOCAL_EMAIL_FROM, MAILBOX_PATH, LocalMail, Mailbox, MailTap, describe
from local_stack.stack import local_email_from
from local_stack.template import api_routes, load_template

from .test_local_serve import Served, get, start_serve, stop


def _mail(number: int, clock: datetime) -> LocalMail:
    return LocalMail(
        to=[f"p{number}@example.com"],
        subject=f"subject {number}",
        text=f"code {number}\n",
        html=f"<p>code {number}</p>",
        sent_at=(clock + timedelta(seconds=number)).isoformat(),
    )


def test_the_mailbox_serves_the_latest_mails_newest_first_within_a_limit() -> None:
    now = datetime(2026, 3, 1, tzinfo=UTC)
    mailbox = Mailbox(kept=3)
    for number in range(5):
        mailbox.deliver(_mail(number, now))
    answer = mailbox.as_json("")
    assert answer.status == 200
    listed = json.loads(answer.body)
    assert [mail["subject"] for mail in listed] == ["subject 4", "subject 3", "subject 2"]
    assert set(listed[0]) >= {"to", "subject", "text", "html", "sent_at"}
    assert [mail["subject"] for mail in json.loads(mailbox.as_json("limit=1").body)] == ["subject 4"]
    assert mailbox.as_json("limit=-1").status == 400


def test_the_tap_reports_each_new_mail_once_with_its_text() -> None:
    mailbox, lines = Mailbox(), []
    tap = MailTap(mailbox, report=lines.append)
    mailbox.deliver(_mail(1, datetime(2026, 3, 1, tzinfo=UTC)))
    assert tap.poll_once() == ["to=p1@example.com subject='subject 1'\ncode 1"]
    assert tap.poll_once() == []
    assert lines == [describe(mailbox.latest()[0])]


def test_the_gateway_serves_the_mailbox_before_any_route_and_the_template_has_no_such_route() -> None:
    mailbox = Mailbox()
    mailbox.deliver(_mail(1, datetime(2026, 3, 1, tzinfo=UTC)))
    template = load_template()
    routes = api_routes(template)
    assert all(not route.path.startswith("/_local") for route in routes)
    assert "/_local" not in json.dumps(template)

    def no_handler() -> Any:
        raise AssertionError("the mailbox is not the API's")

    gateway = Gateway(routes, no_handler, local_routes={MAILBOX_PATH: mailbox.as_json})
    answer = gateway.handle("GET", f"{MAILBOX_PATH}?limit=5", [], b"")
    assert answer.status == 200
    assert json.loads(answer.body)[0]["to"] == "p1@example.com"
    # Without a mailbox (any other gateway), the path is no route at all.
    assert Gateway(routes, no_handler).handle("GET", MAILBOX_PATH, [], b"").status == 404


def test_the_local_sender_is_the_default_unless_given_and_empty_turns_mail_off() -> None:
    template = load_template()
    assert template["Parameters"]["EmailFrom"]["Default"] == ""
    assert local_email_from(template, {}) == {"EmailFrom": LOCAL_EMAIL_FROM}
    assert local_email_from(template, {"EmailFrom": ""}) == {}
    assert local_email_from(template, {"EmailFrom": "me@example.com"}) == {}


# --------------------------------------------------------------------------------------------------
# The stack as `make run` starts it


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("mail"))
    try:
        yield running
    finally:
        stop(running.process)


def _mailer(served: Served) -> SesMailer:
    state = served.state()
    client = boto3.client(
        "sesv2",
        endpoint_url=state["aws_endpoint_url"],
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    environment = state["environment"]
    return SesMailer(environment["EMAIL_FROM"], environment["EMAIL_CONFIGURATION_SET"], client)


def test_mail_the_app_sends_is_printed_and_listed_newest_first(served: Served) -> None:
    environment = served.state()["environment"]
    assert environment["EMAIL_FROM"] == LOCAL_EMAIL_FROM
    assert environment["EMAIL_CONFIGURATION_SET"] == LOCAL_NAMES["EmailConfigurationSet"]
    mailer = _mailer(served)
    first = verify_email("ana@example.com", "111222", "https://dixit.example/verify?code=111222")
    second = sign_in_code("ana@example.com", "333444", "https://dixit.example/sign-in?code=333444")
    mailer.send(first)
    mailer.send(second)

    status, headers, body = get(f"{served.api_url}{MAILBOX_PATH}")
    assert status == 200
    assert headers["content-type"] == "application/json"
    listed = json.loads(body)
    assert [(mail["to"], mail["subject"], mail["text"], mail["html"]) for mail in listed[:2]] == [
        ("ana@example.com", second.subject, second.text, second.html),
        ("ana@example.com", first.subject, first.text, first.html),
    ]
    assert listed[0]["sent_at"] >= listed[1]["sent_at"]

    # The tap prints each as a [mail] line, followed by its text: the code is there to read.
    deadline = time.monotonic() + 30
    while "333444" not in served.stdout.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    printed = served.stdout.read_text()
    assert f"[mail] to=ana@example.com subject={second.subject!r}\n" in printed
    assert "Your sign-in code is: 333444" in printed
    assert printed.index("111222") < printed.index("333444")


def test_the_mailbox_is_no_route_of_the_api(served: Served) -> None:
    status, _, body = get(f"{served.api_url}/openapi.json")
    assert status == 200
    assert "/_local" not in body.decode()
    assert get(f"{served.api_url}{MAILBOX_PATH}", method="POST")[0] == 404


def test_the_mailbox_shows_each_mails_header_fields() -> None:
    mailbox = Mailbox()
    headers = {
        "List-Unsubscribe": "<https://x.example/u?token=t>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    mailbox.deliver(replace(_mail(1, datetime(2026, 3, 1, tzinfo=UTC)), headers=headers))
    (shown,) = json.loads(mailbox.as_json("").body)
    assert shown["headers"] == headers
