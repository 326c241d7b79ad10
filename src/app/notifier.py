"""The only module that talks to SNS: telling players a game is waiting on them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from app import aws_clients

if TYPE_CHECKING:
    from mypy_boto3_sns import SNSClient


class Notifier:
    def __init__(self, topic_arn: str, client: SNSClient | None = None) -> None:
        self.topic_arn = topic_arn
        self._client = client

    def nudge(self, *, game_id: str, player_id: str, phase: str, waiting_since: str) -> bool:
        """Publish one nudge; False when no topic is configured (the caller logs instead)."""
        if not self.topic_arn:
            return False
        if self._client is None:
            self._client = aws_clients.sns()
        self._client.publish(
            TopicArn=self.topic_arn,
            Subject="Your turn in Dixit",
            Message=json.dumps(
                {"game_id": game_id, "player_id": player_id, "phase": phase, "waiting_since": waiting_since}
            ),
            MessageAttributes={"player_id": {"DataType": "String", "StringValue": player_id}},
        )
        return True
