"""Mail for the tests that call the API Lambda in-process: the mailer is a recorder, the clock one to move.

moto's SES keeps no whole message and has no suppression list, so the API tests swap the mailer the
composition root built for a `RecordingMailer` (and its clock for a `Clock`), leaving every other adapter
as `app.bootstrap` builds it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import pytest

from app import bootstrap
from app.notify.email.mail import Mail
from tests.fakes.mail import RecordingMailer
from tests.support.aws import forget_clients_and_settings
from tests.support.clock import Clock

WEB = "https://dixit.example"


@dataclass
class Mailroom:
    mailer: RecordingMailer
    clock: Clock

    def last_to(self, address: str) -> Mail:
        return self.mailer.to(address)[-1]

    def code_for(self, address: str) -> str:
        """The code in the latest mail to `address`."""
        found = re.search(r"code is: (\d{6})", self.last_to(address).text)
        assert found, self.last_to(address).text
        return found.group(1)


def recorded_mail(env: pytest.MonkeyPatch, *, floor_seconds: float = 0.0) -> Mailroom:
    """From now on (until `env` is undone) the API mails through a recorder, on a clock the test moves."""
    env.setenv("WEB_BASE_URL", WEB)
    env.setenv("SIGN_IN_FLOOR_SECONDS", str(floor_seconds))
    forget_clients_and_settings()
    room = Mailroom(RecordingMailer(), Clock(datetime.now(UTC).replace(microsecond=0)))
    built = bootstrap.services

    def services(*args: Any, **kwargs: Any) -> Any:
        return replace(built(*args, **kwargs), mailer=room.mailer, clock=room.clock)

    env.setattr(bootstrap, "services", services)
    return room
