"""Webhooks through the API: tests/api's moto table, two SQS queues, and a real HTTP receiver on 127.0.0.1."""

from tests.support.webhook_fixtures import queues, receiver  # noqa: F401  (fixtures)
