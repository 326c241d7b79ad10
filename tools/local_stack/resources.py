"""Create the template's table, bucket and topic in moto (or any AWS endpoint) from their own Properties.

Key schema, GSI, billing mode, TTL, PITR, bucket CORS, public access block and encryption are read
from ``template.yaml``; nothing here restates them, so the twin matches what CloudFormation deploys.
Physical names are chosen by the caller (``dixit-games-local``...) since CloudFormation would generate them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_sesv2 import SESV2Client
    from mypy_boto3_sns import SNSClient
    from mypy_boto3_sqs import SQSClient


def _props(resource: Mapping[str, Any]) -> dict[str, Any]:
    return dict(resource.get("Properties") or {})


def _literal(value: Any) -> bool:
    """True when ``value`` holds no intrinsic function (so it can be sent to an API as is)."""
    if isinstance(value, dict):
        return not any(key == "Ref" or key.startswith("Fn::") for key in value) and all(
            _literal(item) for item in value.values()
        )
    if isinstance(value, list):
        return all(_literal(item) for item in value)
    return True


def create_table(client: DynamoDBClient, name: str, resource: Mapping[str, Any]) -> str:
    """Create an ``AWS::DynamoDB::Table`` with the template's keys, GSIs, billing, TTL, PITR and SSE."""
    props = _props(resource)
    kwargs: dict[str, Any] = {
        "TableName": name,
        "AttributeDefinitions": props["AttributeDefinitions"],
        "KeySchema": props["KeySchema"],
        "BillingMode": props.get("BillingMode", "PROVISIONED"),
    }
    for key in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes", "ProvisionedThroughput"):
        if key in props:
            kwargs[key] = props[key]
    stream = props.get("StreamSpecification")
    if isinstance(stream, dict) and "StreamViewType" in stream:
        # CloudFormation enables the stream by naming a view type; the API also wants StreamEnabled.
        kwargs["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": stream["StreamViewType"]}
    sse = props.get("SSESpecification")
    if isinstance(sse, dict) and "SSEEnabled" in sse:
        # CloudFormation says SSEEnabled where the API says Enabled.
        kwargs["SSESpecification"] = {"Enabled": bool(sse["SSEEnabled"])}
    client.create_table(**kwargs)
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1, "MaxAttempts": 30})

    ttl = props.get("TimeToLiveSpecification")
    if ttl:
        client.update_time_to_live(
            TableName=name,
            TimeToLiveSpecification={"AttributeName": ttl["AttributeName"], "Enabled": bool(ttl["Enabled"])},
        )
    pitr = props.get("PointInTimeRecoverySpecification")
    if pitr and pitr.get("PointInTimeRecoveryEnabled"):
        client.update_continuous_backups(
            TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True}
        )
    return name


def create_bucket(client: S3Client, name: str, resource: Mapping[str, Any], *, region: str) -> str:
    """Create an ``AWS::S3::Bucket`` with the template's public access block, encryption, ownership, CORS."""
    props = _props(resource)
    if region == "us-east-1":
        client.create_bucket(Bucket=name)
    else:
        location: Any = {"LocationConstraint": region}
        client.create_bucket(Bucket=name, CreateBucketConfiguration=location)

    block = props.get("PublicAccessBlockConfiguration")
    if block:
        client.put_public_access_block(Bucket=name, PublicAccessBlockConfiguration=block)

    encryption = props.get("BucketEncryption")
    if encryption:
        rules = []
        for rule in encryption.get("ServerSideEncryptionConfiguration", []):
            api_rule: dict[str, Any] = {}
            if "ServerSideEncryptionByDefault" in rule:
                api_rule["ApplyServerSideEncryptionByDefault"] = rule["ServerSideEncryptionByDefault"]
            if "BucketKeyEnabled" in rule:
                api_rule["BucketKeyEnabled"] = rule["BucketKeyEnabled"]
            rules.append(api_rule)
        configuration: Any = {"Rules": rules}
        client.put_bucket_encryption(Bucket=name, ServerSideEncryptionConfiguration=configuration)

    ownership = props.get("OwnershipControls")
    if ownership:
        client.put_bucket_ownership_controls(Bucket=name, OwnershipControls=ownership)

    cors = props.get("CorsConfiguration")
    if cors:
        # CloudFormation's names differ from the S3 API's: Id/ID, ExposedHeaders/ExposeHeaders, MaxAge/...
        renames = {"Id": "ID", "ExposedHeaders": "ExposeHeaders", "MaxAge": "MaxAgeSeconds"}
        cors_rules = [
            {renames.get(key, key): value for key, value in rule.items()}
            for rule in cors.get("CorsRules", [])
        ]
        cors_configuration: Any = {"CORSRules": cors_rules}
        client.put_bucket_cors(Bucket=name, CORSConfiguration=cors_configuration)
    return name


def create_topic(client: SNSClient, name: str, resource: Mapping[str, Any]) -> str:
    """Create an ``AWS::SNS::Topic``; returns its ARN (what ``!Ref`` gives for a topic)."""
    props = _props(resource)
    attributes: dict[str, str] = {
        key: str(props[key])
        for key in ("DisplayName", "KmsMasterKeyId")
        if key in props and _literal(props[key])
    }
    if props.get("FifoTopic") is True:
        attributes["FifoTopic"] = "true"
    return client.create_topic(Name=name, Attributes=attributes)["TopicArn"]


def _redrive_target(props: Mapping[str, Any]) -> str | None:
    """The logical id of the queue a ``RedrivePolicy`` dead-letters to (``!GetAtt <Queue>.Arn``)."""
    target = (props.get("RedrivePolicy") or {}).get("deadLetterTargetArn")
    if isinstance(target, dict) and set(target) == {"Fn::GetAtt"} and target["Fn::GetAtt"][1:] == ["Arn"]:
        return str(target["Fn::GetAtt"][0])
    return None


def create_queue(
    client: SQSClient, name: str, resource: Mapping[str, Any], queue_arns: Mapping[str, str] | None = None
) -> str:
    """Create an ``AWS::SQS::Queue``; returns its URL (what ``!Ref`` gives for a queue).

    Literal attributes, FIFO, and the redrive policy when it names a queue in ``queue_arns`` (logical id
    to ARN, created first): the twin then moves a message received ``maxReceiveCount`` times to the
    dead-letter queue, as SQS does.
    """
    props = _props(resource)
    attributes: dict[str, str] = {
        key: str(props[key])
        for key in (
            "VisibilityTimeout",
            "MessageRetentionPeriod",
            "DelaySeconds",
            "MaximumMessageSize",
            "ReceiveMessageWaitTimeSeconds",
        )
        if key in props and _literal(props[key])
    }
    if props.get("FifoQueue") is True:
        attributes["FifoQueue"] = "true"
        name = name if name.endswith(".fifo") else f"{name}.fifo"
        if props.get("ContentBasedDeduplication") is True:
            attributes["ContentBasedDeduplication"] = "true"
    target = _redrive_target(props)
    max_receives = (props.get("RedrivePolicy") or {}).get("maxReceiveCount")
    if target is not None and target in (queue_arns or {}) and isinstance(max_receives, int | str):
        attributes["RedrivePolicy"] = json.dumps(
            {"deadLetterTargetArn": (queue_arns or {})[target], "maxReceiveCount": int(max_receives)}
        )
    return client.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]  # type: ignore[arg-type]


def create_configuration_set(client: SESV2Client, name: str, resource: Mapping[str, Any]) -> str:
    """Create an ``AWS::SES::ConfigurationSet`` with its suppression, reputation and sending options."""
    props = _props(resource)
    kwargs: dict[str, Any] = {"ConfigurationSetName": name}
    for key in ("SuppressionOptions", "ReputationOptions", "SendingOptions", "DeliveryOptions"):
        if key in props and _literal(props[key]):
            kwargs[key] = props[key]
    client.create_configuration_set(**kwargs)
    return name


def create_resources(
    template: Mapping[str, Any],
    *,
    dynamodb_client: DynamoDBClient,
    s3_client: S3Client,
    sns_client: SNSClient,
    names: Mapping[str, str],
    region: str = "us-east-1",
    sqs_client: SQSClient | None = None,
    sesv2_client: SESV2Client | None = None,
) -> dict[str, str]:
    """Create every table, bucket and topic of ``template`` that ``names`` gives a physical name to.

    Returns what ``!Ref`` would give for each logical id: the table name, the bucket name, the topic ARN,
    and the queue URL when an ``sqs_client`` is given (queues are left out otherwise), and the SES
    configuration set's name when an ``sesv2_client`` is.
    Resources of other types (functions, API, log groups, policies) are not created: the local stack
    runs the functions in-process.
    """
    queue_arns: dict[str, str] = {}

    def queue(logical_id: str, name: str, resource: Mapping[str, Any]) -> str:
        assert sqs_client is not None
        url = create_queue(sqs_client, name, resource, queue_arns)
        arn = sqs_client.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]
        queue_arns[logical_id] = arn["QueueArn"]
        return url

    creators: dict[str, Callable[[str, str, Mapping[str, Any]], str]] = {
        "AWS::DynamoDB::Table": lambda _, name, resource: create_table(dynamodb_client, name, resource),
        "AWS::S3::Bucket": lambda _, name, resource: create_bucket(s3_client, name, resource, region=region),
        "AWS::SNS::Topic": lambda _, name, resource: create_topic(sns_client, name, resource),
    }
    if sqs_client is not None:
        creators["AWS::SQS::Queue"] = queue
    if sesv2_client is not None:
        creators["AWS::SES::ConfigurationSet"] = lambda _, name, resource: create_configuration_set(
            sesv2_client, name, resource
        )
    wanted = {
        logical_id: resource
        for logical_id, resource in (template.get("Resources") or {}).items()
        if resource.get("Type") in creators
    }
    missing = sorted(set(wanted) - set(names))
    if missing:  # checked before creating anything, so a failure leaves nothing half made
        raise KeyError(f"no physical name given for {', '.join(missing)}")
    # A dead-letter queue exists before the queue whose redrive policy names it.
    ordered = sorted(wanted.items(), key=lambda item: _redrive_target(_props(item[1])) is not None)
    created = {
        logical_id: creators[resource["Type"]](logical_id, names[logical_id], resource)
        for logical_id, resource in ordered
    }
    return {logical_id: created[logical_id] for logical_id in wanted}


def local_names(template: Mapping[str, Any], given: Mapping[str, str]) -> dict[str, str]:
    """``given`` physical names, and ``dixit-<logical-id>-local`` for every other resource of the
    template: a queue (or table...) added to template.yaml runs locally with no name to add here."""
    derived = {
        logical_id: f"dixit-{re.sub(r'(?<!^)(?=[A-Z])', '-', logical_id).lower()}-local"
        for logical_id in template.get("Resources") or {}
    }
    return {**derived, **given}
