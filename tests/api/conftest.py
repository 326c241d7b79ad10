"""API tests: the real lambda_handler over moto, with the table built from template.yaml itself.

The environment and the table live in tests/support/aws.py, the shared fixtures (`aws`, `players`) in
tests/support/aws_fixtures.py: tests import from there, never from this file.
"""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from tests.support.aws import TABLE
from tests.support.aws_fixtures import _moto_table, aws, players  # noqa: F401  (fixtures for tests/api)

from .stream import StreamFeed


@pytest.fixture
def table(aws: None) -> Any:  # noqa: F811
    """The moto table itself, for looking at what the API stored (never for setting up a game)."""
    return boto3.resource("dynamodb").Table(TABLE)


@pytest.fixture
def feed(aws: None) -> StreamFeed:  # noqa: F811
    """The table's stream from now on, for handing to GameStreamFunction (which writes the inbox entries)."""
    return StreamFeed(TABLE)
