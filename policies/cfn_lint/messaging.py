"""SQS, SNS and event source mappings: encrypted, never losing a message silently, never retrying forever."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from cfnlint.rules import CloudFormationLintRule, RuleMatch
from cfnlint.template import Template

from policies.cfn_lint._stack import Path, as_json, as_list, properties, resources, stack_references

# CloudFormation's defaults where a template says nothing.
_DEFAULT_VISIBILITY_TIMEOUT = 30
_DEFAULT_FUNCTION_TIMEOUT = 3
_DEFAULT_RETENTION = 345_600

_STREAMS = ("AWS::DynamoDB::Table", "AWS::Kinesis::Stream")


class MessagesAreEncrypted(CloudFormationLintRule):
    id = "E9330"
    shortdesc = "Queues and topics are encrypted at rest"
    description = "Every SQS queue uses SSE-SQS or a KMS key; every SNS topic a KMS key."
    source_url = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-server-side-encryption.html"
    tags = ["resources", "sqs", "sns", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        matches = []
        for name, queue in resources(cfn.template, "AWS::SQS::Queue"):
            props = properties(queue)
            if props.get("SqsManagedSseEnabled") is not True and not props.get("KmsMasterKeyId"):
                matches.append(
                    RuleMatch(["Resources", name, "Properties"], f"{name} is not encrypted at rest")
                )
        for name, topic in resources(cfn.template, "AWS::SNS::Topic"):
            if not properties(topic).get("KmsMasterKeyId"):
                matches.append(
                    RuleMatch(["Resources", name, "Properties"], f"{name} is not encrypted at rest")
                )
        return matches


def _mappings(
    template: Mapping[str, Any], *source_types: str
) -> Iterator[tuple[str, dict[str, Any], str, str]]:
    """(mapping id, its properties, source id, function id) of event source mappings from the stack."""
    for name, mapping in resources(template, "AWS::Lambda::EventSourceMapping"):
        props = properties(mapping)
        sources = stack_references(template, props.get("EventSourceArn"), *source_types)
        functions = stack_references(template, props.get("FunctionName"), "AWS::Lambda::Function")
        for source in sources:
            for function in functions or {""}:
                yield name, props, source, function


def _redrive(queue: Mapping[str, Any]) -> dict[str, Any]:
    redrive = as_json(properties(queue).get("RedrivePolicy"))
    return redrive if isinstance(redrive, dict) else {}


class ConsumedQueuesDeadLetter(CloudFormationLintRule):
    id = "E9331"
    shortdesc = "Every queue a function consumes dead-letters into a queue of the stack"
    description = (
        "A queue read by an event source mapping has a RedrivePolicy naming a queue of this stack and a "
        "maxReceiveCount: a message that keeps failing ends there instead of cycling until it expires."
    )
    source_url = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html"
    tags = ["resources", "sqs", "lambda", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for _, _, queue, function in _mappings(template, "AWS::SQS::Queue"):
            redrive = _redrive(template["Resources"][queue])
            if not stack_references(template, redrive.get("deadLetterTargetArn"), "AWS::SQS::Queue"):
                matches.append(
                    RuleMatch(
                        ["Resources", queue, "Properties"],
                        f"{queue} ({function} reads it) has no dead-letter queue",
                    )
                )
            elif not redrive.get("maxReceiveCount"):
                matches.append(
                    RuleMatch(
                        ["Resources", queue, "Properties", "RedrivePolicy"], f"{queue}: no maxReceiveCount"
                    )
                )
        return matches


class QueuesOutwaitTheirConsumers(CloudFormationLintRule):
    id = "E9332"
    shortdesc = "A queue hides a received message at least six times its consumer's timeout"
    description = (
        "Lambda advises a visibility timeout of at least six times the function's timeout, or messages "
        "still being worked on (and retried by the poller) are received again."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html"
    tags = ["resources", "sqs", "lambda", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for _, _, queue, function in _mappings(template, "AWS::SQS::Queue"):
            if not function:
                continue
            visibility = properties(template["Resources"][queue]).get(
                "VisibilityTimeout", _DEFAULT_VISIBILITY_TIMEOUT
            )
            timeout = properties(template["Resources"][function]).get("Timeout", _DEFAULT_FUNCTION_TIMEOUT)
            if isinstance(visibility, int) and isinstance(timeout, int) and visibility < 6 * timeout:
                matches.append(
                    RuleMatch(
                        ["Resources", queue, "Properties"],
                        f"{queue} hides messages {visibility} s, "
                        f"under six times {function}'s {timeout} s timeout",
                    )
                )
        return matches


def _dead_letter_queues(template: Mapping[str, Any]) -> Iterator[tuple[str, Path, str | None]]:
    """(queue, where it is named, source queue if a redrive) of every queue the stack sends failures to."""
    for name, queue in resources(template, "AWS::SQS::Queue"):
        for dlq in stack_references(template, _redrive(queue).get("deadLetterTargetArn"), "AWS::SQS::Queue"):
            yield dlq, ["Resources", name, "Properties", "RedrivePolicy"], name
    for name, mapping in resources(template, "AWS::Lambda::EventSourceMapping"):
        on_failure = ((properties(mapping).get("DestinationConfig") or {}).get("OnFailure") or {}).get(
            "Destination"
        )
        for dlq in stack_references(template, on_failure, "AWS::SQS::Queue"):
            yield dlq, ["Resources", name, "Properties", "DestinationConfig"], None
    for name, config in resources(template, "AWS::Lambda::EventInvokeConfig"):
        on_failure = ((properties(config).get("DestinationConfig") or {}).get("OnFailure") or {}).get(
            "Destination"
        )
        for dlq in stack_references(template, on_failure, "AWS::SQS::Queue"):
            yield dlq, ["Resources", name, "Properties", "DestinationConfig"], None
    for name, function in resources(template, "AWS::Lambda::Function"):
        target = (properties(function).get("DeadLetterConfig") or {}).get("TargetArn")
        for dlq in stack_references(template, target, "AWS::SQS::Queue"):
            yield dlq, ["Resources", name, "Properties", "DeadLetterConfig"], None


def _fires_on_first_message(alarm: Mapping[str, Any]) -> bool:
    operator, threshold = alarm.get("ComparisonOperator"), alarm.get("Threshold")
    if not isinstance(threshold, int | float):
        return False
    return (operator == "GreaterThanThreshold" and threshold < 1) or (
        operator == "GreaterThanOrEqualToThreshold" and threshold <= 1
    )


class DeadLettersAreWatched(CloudFormationLintRule):
    id = "E9333"
    shortdesc = "Every dead-letter queue has an alarm that fires on its first message"
    description = (
        "A queue that receives what failed (a redrive target, an on-failure destination, a function's "
        "dead-letter queue) has a CloudWatch alarm on its ApproximateNumberOfMessagesVisible that fires as "
        "soon as one message is there: otherwise failures pile up unseen until they expire."
    )
    source_url = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/set-cloudwatch-alarms-for-metrics.html"
    tags = ["resources", "sqs", "cloudwatch", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        watched = set()
        for _, alarm in resources(template, "AWS::CloudWatch::Alarm"):
            props = properties(alarm)
            if (props.get("Namespace"), props.get("MetricName")) != (
                "AWS/SQS",
                "ApproximateNumberOfMessagesVisible",
            ):
                continue
            if not _fires_on_first_message(props):
                continue
            for dimension in as_list(props.get("Dimensions")):
                if dimension.get("Name") == "QueueName":
                    watched |= stack_references(template, dimension.get("Value"), "AWS::SQS::Queue")
        matches = []
        for dlq, path, _ in _dead_letter_queues(template):
            if dlq not in watched:
                matches.append(
                    RuleMatch(path, f"{dlq} receives failures and no alarm fires on its first message")
                )
        return matches


class DeadLettersOutliveTheirSource(CloudFormationLintRule):
    id = "E9334"
    shortdesc = "A dead-letter queue keeps messages longer than the queue it serves"
    description = (
        "A standard queue's message keeps its original enqueue time when dead-lettered, so a dead-letter "
        "queue that keeps messages no longer than its source may drop them on arrival."
    )
    source_url = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html"
    tags = ["resources", "sqs", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for dlq, path, source in _dead_letter_queues(template):
            if source is None:
                continue
            kept = properties(template["Resources"][dlq]).get("MessageRetentionPeriod", _DEFAULT_RETENTION)
            source_kept = properties(template["Resources"][source]).get(
                "MessageRetentionPeriod", _DEFAULT_RETENTION
            )
            if isinstance(kept, int) and isinstance(source_kept, int) and kept <= source_kept:
                matches.append(RuleMatch(path, f"{dlq} keeps messages {kept} s, {source} {source_kept} s"))
        return matches


class BatchesReportPartialFailures(CloudFormationLintRule):
    id = "E9335"
    shortdesc = "Queue and stream consumers report partial batch failures"
    description = (
        "Event source mappings from SQS queues and streams return ReportBatchItemFailures, so one failing "
        "record is retried alone instead of its whole batch."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html"
    tags = ["resources", "lambda", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        matches = []
        for name, props, source, _ in _mappings(cfn.template, "AWS::SQS::Queue", *_STREAMS):
            if "ReportBatchItemFailures" not in as_list(props.get("FunctionResponseTypes")):
                matches.append(
                    RuleMatch(["Resources", name, "Properties"], f"{name} retries whole batches of {source}")
                )
        return matches


class StreamsNeverBlock(CloudFormationLintRule):
    id = "E9336"
    shortdesc = "Stream consumers bound their retries and keep what they give up on"
    description = (
        "An event source mapping from a stream bisects failing batches, bounds the age of the records it "
        "retries, and so its retries (a poison record otherwise blocks its shard until it expires), and "
        "sends the batches it gives up on to an on-failure destination of this stack."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html"
    tags = ["resources", "lambda", "dynamodb", "kinesis", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for name, props, source, _ in _mappings(template, *_STREAMS):
            path = ["Resources", name, "Properties"]
            if props.get("BisectBatchOnFunctionError") is not True:
                matches.append(RuleMatch(path, f"{name} does not bisect failing batches of {source}"))
            # MaximumRetryAttempts -1 (the default) retries until the record is MaximumRecordAgeInSeconds old:
            # the age bounds the retries.
            if props.get("MaximumRecordAgeInSeconds") in (None, -1):
                matches.append(
                    RuleMatch(
                        path, f"{name} sets no MaximumRecordAgeInSeconds: it retries {source} records forever"
                    )
                )
            on_failure = ((props.get("DestinationConfig") or {}).get("OnFailure") or {}).get("Destination")
            if not stack_references(template, on_failure, "AWS::SQS::Queue", "AWS::SNS::Topic"):
                matches.append(RuleMatch(path, f"{name} drops the batches of {source} it gives up on"))
        return matches
