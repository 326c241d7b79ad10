"""OAuth's use cases on every store (DynamoDB on moto, in memory), on a clock the test moves."""

from __future__ import annotations

import pytest

from app.core.deadline import Deadline
from app.services import Services
from tests.app.staging import Interleaved
from tests.support.clock import Clock
from tests.support.services import services_over


@pytest.fixture
def services(staged: Interleaved, clock: Clock) -> Services:
    return services_over(staged, clock=clock, deadline=Deadline.after(300))
