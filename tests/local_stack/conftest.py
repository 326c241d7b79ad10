"""The local stack's webhook queue poller runs on the API's moto table with the webhook tests' queues and
receiver: the fixtures come from tests/support, as in tests/api."""

from tests.support.aws_fixtures import _moto_table, aws  # noqa: F401  (fixtures)
from tests.support.webhook_fixtures import queues, receiver  # noqa: F401  (fixtures)
