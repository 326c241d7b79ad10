"""template.yaml: the notification outbox's queues, dead letters, alarms and the functions around them."""

from __future__ import annotations

from typing import Any

import pytest
from policies.stack import translate

from local_stack.template import load_template

from .test_template import allows, of_type, the_api_function, told

CHANNEL_QUEUES = {"EMAIL": "EmailQueue", "WEB_PUSH": "WebPushQueue", "DEVICE_PUSH": "DevicePushQueue"}
DELIVERY = "NotifyDeliveryFunction"


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def stack(template: dict[str, Any]) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return translate(template)


def test_one_function_consumes_every_channel_queue_with_partial_batch_failures(stack: dict[str, Any]) -> None:
    mappings = [
        m["Properties"]
        for m in of_type(stack, "AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["FunctionName"] == {"Ref": DELIVERY}
    ]
    assert sorted(m["EventSourceArn"]["Fn::GetAtt"][0] for m in mappings) == sorted(CHANNEL_QUEUES.values())
    for mapping in mappings:
        assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


def test_each_channel_queue_has_a_dead_letter_queue_with_an_alarm_and_outlives_its_retries(
    stack: dict[str, Any],
) -> None:
    from app.core.settings import AppSettings

    retry_for = AppSettings().notify_retry_for_seconds
    alarms = of_type(stack, "AWS::CloudWatch::Alarm").values()
    for queue in CHANNEL_QUEUES.values():
        props = stack["Resources"][queue]["Properties"]
        dead = props["RedrivePolicy"]["deadLetterTargetArn"]["Fn::GetAtt"][0]
        assert dead == queue.replace("Queue", "DeadLetterQueue")
        assert props["MessageRetentionPeriod"] > retry_for
        watched = [
            a
            for a in alarms
            if {"Name": "QueueName", "Value": {"Fn::GetAtt": [dead, "QueueName"]}}
            in a["Properties"].get("Dimensions", [])
        ]
        assert watched, f"no alarm on {dead}"


def test_the_functions_that_notify_may_only_queue_and_the_delivery_function_may_send_and_retry(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    for function in (the_api_function(template), "SweepFunction", "GameStreamFunction"):
        for channel, queue in CHANNEL_QUEUES.items():
            assert told(stack, function, f"{channel}_QUEUE_URL") == {"Ref": queue}, function
            assert allows(stack, function, "sqs:SendMessageBatch", queue), function
            assert told(stack, function, f"{channel}_DLQ_URL") is None
    for channel, queue in CHANNEL_QUEUES.items():
        dead = queue.replace("Queue", "DeadLetterQueue")
        assert told(stack, DELIVERY, f"{channel}_QUEUE_URL") == {"Ref": queue}
        assert told(stack, DELIVERY, f"{channel}_DLQ_URL") == {"Ref": dead}
        assert allows(stack, DELIVERY, "sqs:ChangeMessageVisibility", queue)
        assert allows(stack, DELIVERY, "sqs:SendMessage", dead)
    (topic,) = of_type(stack, "AWS::SNS::Topic")
    assert allows(stack, DELIVERY, "sns:Publish", topic)
    assert told(stack, DELIVERY, "WEBHOOK_ALLOW_LOOPBACK_HTTP") is None
