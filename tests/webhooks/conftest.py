"""Webhook tests: the API's moto table, two SQS queues, and a real HTTP receiver on 127.0.0.1."""

from tests.support.aws_fixtures import _moto_table, aws, players  # noqa: F401  (shared with tests/api)
from tests.support.webhook_fixtures import queues, receiver  # noqa: F401
