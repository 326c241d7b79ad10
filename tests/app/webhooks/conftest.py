"""Webhook subscriptions over the in-memory doubles: no moto, no HTTP.

Delivery (dispatch, the HTTPS post, slow and odd receivers) runs on the API's moto table with two SQS
queues and a real HTTP receiver on 127.0.0.1: those fixtures come from tests/support.
"""

from __future__ import annotations

import pytest

from app.services import Services
from tests.support.aws_fixtures import _moto_table, aws, players  # noqa: F401  (fixtures)
from tests.support.clock import Clock
from tests.support.services import memory_services
from tests.support.webhook_fixtures import queues, receiver  # noqa: F401  (fixtures)


@pytest.fixture
def services(clock: Clock) -> Services:
    return memory_services(clock=clock)
