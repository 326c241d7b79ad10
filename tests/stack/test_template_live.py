"""template.yaml: the live channel's WebSocket API, its functions, its queue and who may post to it."""

from __future__ import annotations

from typing import Any

import pytest
from policies.cfn_lint._stack import role_of_function, roles_of, statements
from policies.stack import translate

from local_stack.live import websocket_function
from local_stack.template import load_template

from .test_template import allows, of_type, the_api_function, told


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def stack(template: dict[str, Any]) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return translate(template)


def test_a_websocket_api_routes_connect_disconnect_and_frames_to_the_live_function(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    (api,) = [
        name
        for name, r in of_type(stack, "AWS::ApiGatewayV2::Api").items()
        if r["Properties"]["ProtocolType"] == "WEBSOCKET"
    ]
    routes = {
        r["Properties"]["RouteKey"]: r["Properties"]
        for r in of_type(stack, "AWS::ApiGatewayV2::Route").values()
    }
    assert set(routes) == {"$connect", "$disconnect", "$default"}
    assert all(route["ApiId"] == {"Ref": api} for route in routes.values())
    # Frames are answered on their connection: the $default route has a response.
    (response,) = of_type(stack, "AWS::ApiGatewayV2::RouteResponse").values()
    assert response["Properties"]["RouteResponseKey"] == "$default"
    assert websocket_function(template) == "LiveFunction"
    assert stack["Resources"]["LiveFunction"]["Properties"]["Handler"] == "handlers.live.lambda_handler"
    (stage,) = of_type(stack, "AWS::ApiGatewayV2::Stage").values()
    assert stage["Properties"]["StageName"] == {"Ref": "Stage"}
    assert "AccessLogSettings" in stage["Properties"]


def test_only_the_sender_may_post_to_connections_and_only_on_this_api(stack: dict[str, Any]) -> None:
    posting: dict[str, list[dict[str, Any]]] = {}
    for function in of_type(stack, "AWS::Lambda::Function"):
        role = role_of_function(stack, function)
        documents = [document for _, document in roles_of(stack, role)] if role else []
        found = [
            statement
            for document in documents
            for _, statement in statements(document)
            if "execute-api:ManageConnections" in str(statement.get("Action"))
        ]
        if found:
            posting[function] = found
    assert set(posting) == {"LiveDeliveryFunction"}
    (statement,) = posting["LiveDeliveryFunction"]
    resource = statement["Resource"]["Fn::Sub"]
    assert "${LiveApi}/${Stage}/POST/@connections/*" in resource
    assert "*" not in resource.replace("@connections/*", "")


def test_the_stream_enqueues_changes_that_the_sender_consumes_with_a_dead_letter_queue(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    stream = "GameStreamFunction"
    assert told(stack, stream, "LIVE_QUEUE_URL") == {"Ref": "LiveQueue"}
    assert allows(stack, stream, "sqs:SendMessage", "LiveQueue")
    # Table talk is told from the request (its items are not on the stream): the API queues its
    # webhook deliveries and live signals. An enqueue, never a post to a socket: nobody waits on one.
    api = the_api_function(template)
    for variable, queue in (("LIVE_QUEUE_URL", "LiveQueue"), ("WEBHOOK_QUEUE_URL", "WebhookQueue")):
        assert told(stack, api, variable) == {"Ref": queue}
        assert allows(stack, api, "sqs:SendMessage", queue)
    (mapping,) = [
        m["Properties"]
        for m in of_type(stack, "AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["FunctionName"] == {"Ref": "LiveDeliveryFunction"}
    ]
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": ["LiveQueue", "Arn"]}
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    queue = stack["Resources"]["LiveQueue"]["Properties"]
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {"Fn::GetAtt": ["LiveDeadLetterQueue", "Arn"]}
    assert (
        queue["VisibilityTimeout"] >= 6 * stack["Resources"]["LiveDeliveryFunction"]["Properties"]["Timeout"]
    )
    assert "LiveDeadLetterAlarm" in stack["Resources"]


def test_the_ticket_names_the_stage_of_the_websocket_api(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    api = the_api_function(template)
    url = told(stack, api, "LIVE_URL")["Fn::Sub"]
    assert url.startswith("wss://${LiveApi}.execute-api.")
    assert url.endswith("/${Stage}")
    endpoint = told(stack, "LiveDeliveryFunction", "LIVE_ENDPOINT_URL")["Fn::Sub"]
    assert endpoint == url.replace("wss://", "https://")
