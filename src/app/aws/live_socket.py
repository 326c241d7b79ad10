"""The only module that posts to the live channel's WebSockets: API Gateway's PostToConnection."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from app.aws import clients as aws_clients
from app.core.telemetry import logger
from app.live.ports import Posted


class ApiGatewayLiveSocket:
    """app.live.ports.LiveSocket over the WebSocket API's management endpoint."""

    def __init__(self, endpoint_url: str, client: Any = None) -> None:
        self.endpoint_url = endpoint_url
        self._given = client
        self._client: Any = None
        self._generation = -1

    @property
    def client(self) -> Any:
        if self._given is not None:
            return self._given
        if self._client is None or self._generation != aws_clients.generation():
            self._client = aws_clients.live_connections(self.endpoint_url)
            self._generation = aws_clients.generation()
        return self._client

    def post(self, connection_id: str, data: bytes) -> Posted:
        if not self.endpoint_url:
            return Posted.GONE  # no live channel here: nothing to keep
        try:
            self.client.post_to_connection(ConnectionId=connection_id, Data=data)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
            if code == "GoneException" or status == 410:
                return Posted.GONE
            logger.warning("a live post failed", extra={"connection_id": connection_id, "code": code})
            return Posted.FAILED
        except BotoCoreError as error:
            logger.warning("a live post failed", extra={"connection_id": connection_id, "error": str(error)})
            return Posted.FAILED
        return Posted.SENT
