"""app.aws.ses.SesMailer against the twin (moto server behind local_stack.mail.SesMailbox, in-process)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.stub import Stubber

from app.aws.ses import SesMailer
from app.notify.email.mail import Mail, MailNotConfigured, MailRefused, MailUnavailable, Suppressed
from local_stack.mail import Mailbox
from local_stack.twin import TwinServer
from tests.support.http_peer import read_request

SENDER = "dixit@localhost.test"
MAIL = Mail(to="player@example.com", subject="Your code: 482913", text="code 482913\n", html="<p>482913</p>")


@pytest.fixture(scope="module")
def twin() -> Iterator[tuple[str, Mailbox]]:
    mailbox = Mailbox()
    server = TwinServer(ip_address="127.0.0.1", port=0, verbose=False, mailbox=mailbox)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}", mailbox
    finally:
        server.stop()


def sesv2_of(endpoint: str) -> Any:
    return boto3.client(
        "sesv2",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"mode": "standard", "max_attempts": 1}, connect_timeout=1, read_timeout=2),
    )


@pytest.fixture(scope="module")
def client(twin: tuple[str, Mailbox]) -> Any:
    client = sesv2_of(twin[0])
    client.create_email_identity(EmailIdentity=SENDER)
    client.create_configuration_set(
        ConfigurationSetName="mail", SuppressionOptions={"SuppressedReasons": ["BOUNCE", "COMPLAINT"]}
    )
    return client


def test_a_mail_is_sent_with_both_parts_from_the_sender_in_the_configuration_set(
    twin: tuple[str, Mailbox], client: Any
) -> None:
    mailbox = twin[1]
    SesMailer(SENDER, "mail", client).send(MAIL)
    (sent, *_) = mailbox.latest()
    assert (sent.to, sent.subject, sent.text, sent.html) == ([MAIL.to], MAIL.subject, MAIL.text, MAIL.html)
    assert sent.from_address == SENDER
    assert sent.configuration_set == "mail"
    assert sent.message_id


def test_without_a_sender_nothing_is_sent(twin: tuple[str, Mailbox], client: Any) -> None:
    mailer = SesMailer("", "mail", client)
    before = len(twin[1].latest())
    assert not mailer.configured
    with pytest.raises(MailNotConfigured) as raised:
        mailer.send(MAIL)
    assert raised.value.code == "email_not_configured"
    assert len(twin[1].latest()) == before


def test_a_suppressed_address_is_never_mailed(twin: tuple[str, Mailbox], client: Any) -> None:
    mailer = SesMailer(SENDER, "mail", client)
    bounced = Mail(to="bounced@example.com", subject="s", text="t", html="h")
    client.put_suppressed_destination(EmailAddress="Bounced@example.com", Reason="BOUNCE")
    assert mailer.suppressed("bounced@example.com")
    with pytest.raises(Suppressed) as raised:
        mailer.send(bounced)
    assert raised.value.code == "email_suppressed"
    assert all(mail.to != ["bounced@example.com"] for mail in twin[1].latest())
    # Off the list (an operator removed it), the address is mailed again.
    client.delete_suppressed_destination(EmailAddress="bounced@example.com")
    assert not mailer.suppressed("bounced@example.com")
    mailer.send(bounced)
    assert twin[1].latest()[0].to == ["bounced@example.com"]


def test_a_sender_ses_refuses_is_a_refusal(client: Any) -> None:
    with pytest.raises(MailRefused) as raised:
        SesMailer("unverified@localhost.test", "mail", client).send(MAIL)
    assert raised.value.code == "email_refused"


@pytest.mark.parametrize(
    ("operation", "code", "status"),
    [
        ("get_suppressed_destination", "TooManyRequestsException", 429),
        ("send_email", "TooManyRequestsException", 429),
        ("send_email", "SendingPausedException", 400),
        ("send_email", "InternalFailure", 500),
    ],
)
def test_throttling_failures_and_a_paused_account_are_unavailable(
    operation: str, code: str, status: int
) -> None:
    client = sesv2_of("http://127.0.0.1:9")
    with Stubber(client) as stub:
        if operation == "send_email":
            stub.add_client_error("get_suppressed_destination", "NotFoundException", http_status_code=404)
        stub.add_client_error(operation, code, http_status_code=status)
        with pytest.raises(MailUnavailable) as raised:
            SesMailer(SENDER, "mail", client).send(MAIL)
    assert raised.value.code == "email_unavailable"


def test_an_unreachable_service_is_unavailable() -> None:
    with pytest.raises(MailUnavailable):
        SesMailer(SENDER, "mail", sesv2_of("http://127.0.0.1:9")).send(MAIL)


def test_a_mails_extra_headers_reach_ses_and_the_local_mailbox_records_them(
    twin: tuple[str, Mailbox], client: Any
) -> None:
    headers = (
        ("List-Unsubscribe", "<https://dixit.example/unsubscribe?token=abc>"),
        ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
    )
    SesMailer(SENDER, "mail", client).send(
        Mail(to="headers@example.com", subject="s", text="t\n", html="<p>t</p>", headers=headers)
    )
    (sent, *_) = twin[1].latest()
    assert sent.to == ["headers@example.com"]
    assert sent.headers == dict(headers)


def test_a_header_value_with_a_line_break_is_no_mail() -> None:
    with pytest.raises(ValueError, match="one non-empty line"):
        Mail(to="a@example.com", subject="s", text="t", html="t", headers=(("X-A", "b\r\nBcc: c@d"),))
    with pytest.raises(ValueError, match="header field name"):
        Mail(to="a@example.com", subject="s", text="t", html="t", headers=(("X A:", "b"),))


def test_a_lost_answer_is_an_unknown_outcome_and_the_sdk_never_retries_send_email(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from botocore.exceptions import ReadTimeoutError

    from app.aws import clients
    from app.notify.email.mail import MailOutcomeUnknown

    client = sesv2_of("http://127.0.0.1:9")
    sends: list[dict[str, Any]] = []

    def lost(**request: Any) -> None:
        sends.append(request)
        raise ReadTimeoutError(endpoint_url="http://127.0.0.1:9")

    monkeypatch.setattr(client, "get_suppressed_destination", _not_suppressed)
    monkeypatch.setattr(client, "send_email", lost)
    with pytest.raises(MailOutcomeUnknown):
        SesMailer(SENDER, "mail", client).send(MAIL)
    assert len(sends) == 1
    # The client app.bootstrap's mailer uses makes one attempt: SendEmail is not idempotent.
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    clients.reset()
    try:
        assert clients.sesv2().meta.config.retries["total_max_attempts"] == 1
    finally:
        clients.reset()


def _not_suppressed(**_: Any) -> None:
    from botocore.exceptions import ClientError

    raise ClientError({"Error": {"Code": "NotFoundException"}}, "GetSuppressedDestination")


def _failing_on_send(error: Exception) -> Any:
    """A real SES client whose HTTP send raises `error` (botocore's own transport errors surface the
    same way), the suppression lookup answering "not suppressed"."""
    client = sesv2_of("http://127.0.0.1:9")

    def fail(**_: Any) -> None:
        raise error

    client.meta.events.register("before-send.sesv2.SendEmail", fail)
    client.meta.events.register("before-send.sesv2.GetSuppressedDestination", _not_found_response)
    return client


def _not_found_response(request: Any, **_: Any) -> Any:
    from botocore.awsrequest import AWSResponse

    class Raw:
        def stream(self, **_: Any) -> Iterator[bytes]:
            yield b'{"message": "not suppressed"}'

    headers = {"x-amzn-ErrorType": "NotFoundException", "Content-Type": "application/json"}
    return AWSResponse(request.url, 404, headers, Raw())


def _after_sending() -> list[Exception]:
    from botocore.exceptions import (
        ConnectionClosedError,
        HTTPClientError,
        ReadTimeoutError,
        ResponseStreamingError,
    )

    url = "http://127.0.0.1:9"
    return [
        ReadTimeoutError(endpoint_url=url),
        ConnectionClosedError(endpoint_url=url),
        HTTPClientError(error=OSError("connection reset by peer")),
        ResponseStreamingError(error=OSError("connection reset by peer")),
    ]


@pytest.mark.parametrize("error", _after_sending(), ids=lambda error: type(error).__name__)
def test_an_error_after_the_request_went_out_is_an_unknown_outcome(error: Exception) -> None:
    from app.notify.email.mail import MailOutcomeUnknown

    with pytest.raises(MailOutcomeUnknown):
        SesMailer(SENDER, "mail", _failing_on_send(error)).send(MAIL)


def _before_sending() -> list[Exception]:
    from botocore.exceptions import ConnectTimeoutError, EndpointConnectionError

    url = "http://127.0.0.1:9"
    return [EndpointConnectionError(endpoint_url=url), ConnectTimeoutError(endpoint_url=url)]


@pytest.mark.parametrize("error", _before_sending(), ids=lambda error: type(error).__name__)
def test_a_connection_that_never_opened_is_a_refusal_not_an_unknown_outcome(error: Exception) -> None:
    from app.notify.email.mail import MailOutcomeUnknown

    with pytest.raises(MailUnavailable) as raised:
        SesMailer(SENDER, "mail", _failing_on_send(error)).send(MAIL)
    assert not isinstance(raised.value, MailOutcomeUnknown)


def test_a_connection_closed_once_the_mail_was_sent_is_an_unknown_outcome() -> None:
    """A server that reads the whole SendEmail request and hangs up without answering (the fault probe)."""
    import socket
    import threading

    from botocore.exceptions import ConnectionClosedError

    from app.notify.email.mail import MailOutcomeUnknown

    listener = socket.create_server(("127.0.0.1", 0))
    received: list[bytes] = []

    def hang_up_after_reading() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.settimeout(2)
            received.append(read_request(connection))
            connection.shutdown(socket.SHUT_RDWR)

    server = threading.Thread(target=hang_up_after_reading, daemon=True)
    server.start()
    try:
        # One attempt, as the deployed client makes (app.aws.clients.sesv2): a retry would be the duplicate.
        client = boto3.client(
            "sesv2",
            endpoint_url=f"http://127.0.0.1:{listener.getsockname()[1]}",
            region_name="us-east-1",
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            config=Config(retries={"mode": "standard", "total_max_attempts": 1}, read_timeout=5),
        )
        client.meta.events.register("before-send.sesv2.GetSuppressedDestination", _not_found_response)
        with pytest.raises(MailOutcomeUnknown) as raised:
            SesMailer(SENDER, "mail", client).send(MAIL)
        server.join(timeout=5)
        assert isinstance(raised.value.__cause__, ConnectionClosedError)
    finally:
        listener.close()
    (body,) = received
    assert b"player@example.com" in body
