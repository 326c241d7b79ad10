"""Notification delivery over the in-memory doubles: no moto, no HTTP."""

from __future__ import annotations

import pytest

from app.notify.delivery import Delivery
from app.services import Services
from tests.fakes.mail import RecordingMailer
from tests.fakes.notify import MemoryNotificationStore
from tests.fakes.push import MemoryNotifier
from tests.support.clock import Clock
from tests.support.services import memory_services


@pytest.fixture
def services(clock: Clock) -> Services:
    return memory_services(clock=clock)


@pytest.fixture
def push(services: Services) -> MemoryNotifier:
    assert isinstance(services.push, MemoryNotifier)
    return services.push


@pytest.fixture
def mailer(services: Services) -> RecordingMailer:
    assert isinstance(services.mailer, RecordingMailer)
    return services.mailer


@pytest.fixture
def store(services: Services) -> MemoryNotificationStore:
    assert isinstance(services.notifications, MemoryNotificationStore)
    return services.notifications


@pytest.fixture
def deliver(services: Services) -> Delivery:
    return Delivery.of(services)
