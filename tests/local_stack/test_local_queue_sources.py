"""Every SQS event of the template runs locally as Lambda's event source mapping would: read from the
template (not named queue by queue), with its batch size, partial batch failures, and the queue's
redrive to its dead-letter queue after maxReceiveCount receives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from local_stack import LOCAL_NAMES
from local_stack.queues import QueuePoller, queue_pollers, report_label, sqs_event
from local_stack.resources import create_resources, local_names
from local_stack.runtime import LambdaContext
from local_stack.template import QueueEventSpec, functions, load_template, loads_template

#: Two delivery functions on two queues, each with its dead-letter queue (declared after it, as
#: template.yaml does): the shape a new notification channel takes.
FRAGMENT = """
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Parameters:
  PushBatch: {Type: Number, Default: 3}
Resources:
  PushDeliveryFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: push.handler
      CodeUri: src/
      Timeout: 20
      Events:
        Pushes:
          Type: SQS
          Properties:
            Queue: !GetAtt PushQueue.Arn
            BatchSize: !Ref PushBatch
            FunctionResponseTypes: [ReportBatchItemFailures]
  MailDeliveryFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: mail.handler
      CodeUri: src/
      Events:
        Mails:
          Type: SQS
          Properties:
            Queue: !GetAtt MailQueue.Arn
        Paused:
          Type: SQS
          Properties:
            Queue: !GetAtt PushDeadLetterQueue.Arn
            Enabled: false
  PushQueue:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 0
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt PushDeadLetterQueue.Arn
        maxReceiveCount: 3
  PushDeadLetterQueue:
    Type: AWS::SQS::Queue
  MailQueue:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 0
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt MailDeadLetterQueue.Arn
        maxReceiveCount: 2
  MailDeadLetterQueue:
    Type: AWS::SQS::Queue
"""


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)
    with mock_aws():
        yield


@pytest.fixture
def queues(aws: None) -> dict[str, str]:
    template = loads_template(FRAGMENT)
    return create_resources(
        template,
        dynamodb_client=boto3.client("dynamodb"),
        s3_client=boto3.client("s3"),
        sns_client=boto3.client("sns"),
        sqs_client=boto3.client("sqs"),
        names=local_names(template, {}),
    )


class Recorder:
    """A handler answering with what a test scripts, keeping each event."""

    def __init__(self, answer: Any = None, raises: bool = False) -> None:
        self.answer = answer
        self.raises = raises
        self.events: list[dict[str, Any]] = []

    def __call__(self, event: dict[str, Any], _context: LambdaContext) -> Any:
        self.events.append(event)
        if self.raises:
            raise RuntimeError("the function crashed")
        return self.answer(event) if callable(self.answer) else self.answer


def send(url: str, *bodies: str, **attributes: str) -> None:
    for body in bodies:
        boto3.client("sqs").send_message(
            QueueUrl=url,
            MessageBody=body,
            MessageAttributes={k: {"DataType": "String", "StringValue": v} for k, v in attributes.items()},
        )


def in_queue(url: str) -> int:
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    found = boto3.client("sqs").get_queue_attributes(QueueUrl=url, AttributeNames=names)
    return sum(int(found["Attributes"][name]) for name in names)


def poller(url: str, handler: Recorder, *, report_items: bool, lines: list[str] | None = None) -> QueuePoller:
    return QueuePoller(
        boto3.client("sqs"),
        url,
        "PushDeliveryFunction",
        lambda: handler,
        batch_size=10,
        report_batch_item_failures=report_items,
        report=(lines if lines is not None else []).append,
    )


def test_the_template_s_sqs_events_are_read_with_their_batch_size_and_response_types() -> None:
    specs = functions(loads_template(FRAGMENT))
    assert specs["PushDeliveryFunction"].queues == (QueueEventSpec("Pushes", "PushQueue", 3, True),)
    assert specs["MailDeliveryFunction"].queues == (
        QueueEventSpec("Mails", "MailQueue", 10, False),
        QueueEventSpec("Paused", "PushDeadLetterQueue", 10, False, enabled=False),
    )


def test_queues_get_a_local_name_a_dead_letter_queue_first_and_their_redrive_policy(
    queues: dict[str, str],
) -> None:
    assert queues["PushQueue"].endswith("/dixit-push-queue-local")
    assert queues["MailDeadLetterQueue"].endswith("/dixit-mail-dead-letter-queue-local")
    sqs = boto3.client("sqs")
    policy = sqs.get_queue_attributes(QueueUrl=queues["PushQueue"], AttributeNames=["RedrivePolicy"])
    dlq_arn = sqs.get_queue_attributes(QueueUrl=queues["PushDeadLetterQueue"], AttributeNames=["QueueArn"])
    assert '"maxReceiveCount": 3' in policy["Attributes"]["RedrivePolicy"]
    assert dlq_arn["Attributes"]["QueueArn"] in policy["Attributes"]["RedrivePolicy"]


def test_each_enabled_sqs_event_gets_a_poller_on_its_queue_with_its_settings(queues: dict[str, str]) -> None:
    template = loads_template(FRAGMENT)
    handlers = {name: (lambda: Recorder()) for name in functions(template)}
    lines: list[str] = []
    pollers = queue_pollers(boto3.client("sqs"), functions(template), queues, handlers, say=lines.append)
    assert [(p.function, p.queue_url, p.batch_size, p.report_batch_item_failures) for p in pollers] == [
        ("PushDeliveryFunction", queues["PushQueue"], 3, True),
        ("MailDeliveryFunction", queues["MailQueue"], 10, False),
    ]
    assert pollers[0].timeout_seconds == 20
    pollers[0].report("x")
    assert lines == ["[push-delivery] x"]
    assert report_label("WebhookFunction") == "webhook"  # the lines docs/webhooks.md shows


def test_the_real_template_runs_every_sqs_event_it_declares(aws: None) -> None:
    template = load_template()
    resources = create_resources(
        template,
        dynamodb_client=boto3.client("dynamodb"),
        s3_client=boto3.client("s3"),
        sns_client=boto3.client("sns"),
        sqs_client=boto3.client("sqs"),
        names=local_names(template, LOCAL_NAMES),
    )
    specs = functions(template)
    handlers = {name: (lambda: Recorder()) for name in specs}
    declared = {(name, e.queue) for name, spec in specs.items() for e in spec.queues if e.enabled}
    assert ("WebhookFunction", "WebhookQueue") in declared
    pollers = queue_pollers(boto3.client("sqs"), specs, resources, handlers)
    assert {(p.function, p.queue_url) for p in pollers} == {(f, resources[q]) for f, q in declared}


def test_reported_item_failures_come_back_and_the_rest_is_deleted(queues: dict[str, str]) -> None:
    url = queues["PushQueue"]
    send(url, "one", "two", "three")

    def fail_two(event: dict[str, Any]) -> dict[str, Any]:
        return {
            "batchItemFailures": [
                {"itemIdentifier": r["messageId"]} for r in event["Records"] if r["body"] == "two"
            ]
        }

    lines: list[str] = []
    handler = Recorder(fail_two)
    assert poller(url, handler, report_items=True, lines=lines).poll_once() == 3
    assert in_queue(url) == 1
    assert sorted(line.rsplit(": ", 1)[1] for line in lines) == [
        "done",
        "done",
        "failed, retried after its backoff",
    ]
    again = Recorder({"batchItemFailures": []})
    assert poller(url, again, report_items=True).poll_once() == 1
    assert [r["body"] for r in again.events[0]["Records"]] == ["two"]
    assert in_queue(url) == 0


def test_without_report_batch_item_failures_the_response_is_ignored(queues: dict[str, str]) -> None:
    url = queues["PushQueue"]
    send(url, "one", "two")
    handler = Recorder(
        lambda event: {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}
    )
    poller(url, handler, report_items=False).poll_once()
    assert in_queue(url) == 0


def test_an_unknown_item_identifier_fails_the_whole_batch(queues: dict[str, str]) -> None:
    url = queues["PushQueue"]
    send(url, "one", "two")
    poller(url, Recorder({"batchItemFailures": [{"itemIdentifier": ""}]}), report_items=True).poll_once()
    assert in_queue(url) == 2


def test_a_crashing_function_fails_its_batch_until_the_queue_dead_letters_it(queues: dict[str, str]) -> None:
    url, dlq = queues["MailQueue"], queues["MailDeadLetterQueue"]  # maxReceiveCount: 2
    send(url, "poison")
    crashing = Recorder(raises=True)
    local = poller(url, crashing, report_items=False)
    assert local.poll_once() == 1
    assert local.poll_once() == 1
    assert (in_queue(url), in_queue(dlq)) == (1, 0)
    assert local.poll_once() == 0  # a third receive: the twin moves it to the dead-letter queue instead
    assert (in_queue(url), in_queue(dlq)) == (0, 1)
    assert len(crashing.events) == 2
    received = crashing.events[-1]["Records"][0]["attributes"]["ApproximateReceiveCount"]
    assert received == "2"


def test_the_event_is_lambdas_with_message_attributes(queues: dict[str, str]) -> None:
    url = queues["PushQueue"]
    send(url, '{"kind": "your_turn", "dedupe_id": "g#p#3#turn"}', channel="web_push")
    handler = Recorder()
    lines: list[str] = []
    poller(url, handler, report_items=True, lines=lines).poll_once()
    (record,) = handler.events[0]["Records"]
    assert record["eventSource"] == "aws:sqs"
    assert record["eventSourceARN"].endswith(":dixit-push-queue-local")
    assert record["messageAttributes"] == {
        "channel": {
            "stringValue": "web_push",
            "binaryValue": None,
            "stringListValues": [],
            "binaryListValues": [],
            "dataType": "String",
        }
    }
    assert lines == ["kind=your_turn dedupe_id=g#p#3#turn attempt 1: done"]
    assert sqs_event([], "arn", "us-east-1") == {"Records": []}
