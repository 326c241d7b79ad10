"""The only module that talks to SES (the v2 API): one mail at a time, never to a suppressed address."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotocoreConnectionError

from app.aws import clients as aws_clients
from app.notify.email.mail import (
    Mail,
    MailNotConfigured,
    MailOutcomeUnknown,
    MailRefused,
    MailUnavailable,
    Suppressed,
)

if TYPE_CHECKING:
    from mypy_boto3_sesv2 import SESV2Client
    from mypy_boto3_sesv2.type_defs import SendEmailRequestTypeDef

# Pass if the caller waits: throttling and the service's own failures (with any 5xx status).
_BUSY = frozenset({"TooManyRequestsException", "LimitExceededException", "ThrottlingException"})
# The account cannot send now, whatever the message: an operator has to act (or AWS lifts a pause).
_PAUSED = frozenset(
    {"SendingPausedException", "AccountSuspendedException", "MailFromDomainNotVerifiedException"}
)
# This message will never be sent: an address SES refuses (in the sandbox: any unverified one).
_REFUSED = frozenset({"MessageRejected", "BadRequestException"})


class SesMailer:
    """app.notify.email.mail.Mailer over SES v2: `SendEmail` from `from_address` in `configuration_set`.

    The configuration set is what feeds the suppression list (bounces and complaints, template.yaml);
    before each send, the address is looked up there (`GetSuppressedDestination`) and never mailed.
    """

    def __init__(
        self, from_address: str, configuration_set: str = "", client: SESV2Client | None = None
    ) -> None:
        self.from_address = from_address
        self.configuration_set = configuration_set
        self._client = client

    @property
    def client(self) -> SESV2Client:
        if self._client is None:
            self._client = aws_clients.sesv2()
        return self._client

    @property
    def configured(self) -> bool:
        return bool(self.from_address)

    def suppressed(self, address: str) -> bool:
        """True when `address` is on the account's suppression list."""
        try:
            self.client.get_suppressed_destination(EmailAddress=address)
        except ClientError as error:
            if _code(error) == "NotFoundException":
                return False
            _raise_translated(error)
        except (HTTPClientError, BotocoreConnectionError) as error:
            raise MailUnavailable() from error
        return True

    def send(self, mail: Mail) -> None:
        if not self.configured:
            raise MailNotConfigured()
        if self.suppressed(mail.to):
            raise Suppressed()
        request: SendEmailRequestTypeDef = {
            "FromEmailAddress": self.from_address,
            "Destination": {"ToAddresses": [mail.to]},
            "Content": {
                "Simple": {
                    "Subject": {"Data": mail.subject, "Charset": "UTF-8"},
                    "Body": {
                        "Text": {"Data": mail.text, "Charset": "UTF-8"},
                        "Html": {"Data": mail.html, "Charset": "UTF-8"},
                    },
                }
            },
        }
        if mail.headers:
            request["Content"]["Simple"]["Headers"] = [
                {"Name": name, "Value": value} for name, value in mail.headers
            ]
        if self.configuration_set:
            request["ConfigurationSetName"] = self.configuration_set
        try:
            # SendEmail is not idempotent: its client makes one attempt (app.aws.clients.sesv2), and the
            # caller's queue retries, after a lost answer only once the send's claim expired.
            self.client.send_email(**request)
        except ClientError as error:
            _raise_translated(error)
        except HTTPClientError as error:
            # Raised once the request may have gone out (a read timeout, a connection closed before
            # the answer, ResponseStreamingError, any other error of the HTTP client while sending):
            # SES may have taken the mail, so the send's claim is kept.
            raise MailOutcomeUnknown() from error
        except BotocoreConnectionError as error:
            # The connection never opened (EndpointConnectionError, ConnectTimeoutError, a proxy or
            # TLS failure): nothing reached SES, the claim is given back.
            raise MailUnavailable() from error


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _raise_translated(error: ClientError) -> NoReturn:
    """Raise the mail error `error` stands for; an unknown one is raised as it is (a 500, logged)."""
    code = _code(error)
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) or 0)
    if code in _BUSY or status >= 500:
        raise MailUnavailable() from error
    if code in _PAUSED:
        raise MailUnavailable("sending email is paused on this deployment; try again later") from error
    if code in _REFUSED:
        raise MailRefused() from error
    raise error
