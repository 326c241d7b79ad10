"""local_stack.resources, card-art seeding and the SNS tap, against moto's in-process mock."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

import card_art
from app.decks.card_images import image_key
from dixit.cards import OFFICIAL_DECKS
from local_stack import LOCAL_NAMES
from local_stack.card_seeding import official_card_ids, seed_card_art
from local_stack.resources import create_resources, local_names
from local_stack.tap import TopicTap, describe
from local_stack.template import load_template


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
def created(aws: None) -> dict[str, str]:
    return create_resources(
        load_template(),
        dynamodb_client=boto3.client("dynamodb"),
        s3_client=boto3.client("s3"),
        sns_client=boto3.client("sns"),
        names=LOCAL_NAMES,
    )


def test_create_resources_returns_what_ref_gives_for_each_resource(created: dict[str, str]) -> None:
    assert created == {
        "GameTable": "dixit-games-local",
        "CardBucket": "dixit-cards-local",
        "NudgeTopic": "arn:aws:sns:us-east-1:123456789012:dixit-nudges-local",
    }


def test_the_table_has_the_template_keys_gsi_billing_ttl_and_pitr(created: dict[str, str]) -> None:
    client = boto3.client("dynamodb")
    props = load_template()["Resources"]["GameTable"]["Properties"]
    table = client.describe_table(TableName=created["GameTable"])["Table"]
    assert table["KeySchema"] == props["KeySchema"]
    assert sorted(table["AttributeDefinitions"], key=str) == sorted(props["AttributeDefinitions"], key=str)
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    indexes = {gsi["IndexName"]: gsi for gsi in table["GlobalSecondaryIndexes"]}
    assert set(indexes) == {"gsi1", "due"}
    for declared in props["GlobalSecondaryIndexes"]:
        assert indexes[declared["IndexName"]]["KeySchema"] == declared["KeySchema"]
        assert indexes[declared["IndexName"]]["Projection"] == {"ProjectionType": "KEYS_ONLY"}
    assert table["SSEDescription"]["Status"] == "ENABLED"
    ttl = client.describe_time_to_live(TableName=created["GameTable"])["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires_at"}
    backups = client.describe_continuous_backups(TableName=created["GameTable"])[
        "ContinuousBackupsDescription"
    ]
    assert backups["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"


def test_the_bucket_has_the_template_cors_public_access_block_encryption_and_ownership(
    created: dict[str, str],
) -> None:
    s3 = boto3.client("s3")
    bucket = created["CardBucket"]
    (rule,) = s3.get_bucket_cors(Bucket=bucket)["CORSRules"]
    assert rule["AllowedMethods"] == ["GET", "HEAD", "PUT"]
    assert rule["AllowedOrigins"] == ["*"]
    assert rule["ExposeHeaders"] == ["ETag"]
    assert rule["MaxAgeSeconds"] == 3000
    assert rule["ID"] == "presigned-card-images"
    block = s3.get_public_access_block(Bucket=bucket)["PublicAccessBlockConfiguration"]
    assert block == dict.fromkeys(
        ("BlockPublicAcls", "IgnorePublicAcls", "BlockPublicPolicy", "RestrictPublicBuckets"), True
    )
    (encryption,) = s3.get_bucket_encryption(Bucket=bucket)["ServerSideEncryptionConfiguration"]["Rules"]
    assert encryption["ApplyServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    ownership = s3.get_bucket_ownership_controls(Bucket=bucket)["OwnershipControls"]
    assert ownership == {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}


def test_the_topic_takes_its_display_name_from_the_template(created: dict[str, str]) -> None:
    attributes = boto3.client("sns").get_topic_attributes(TopicArn=created["NudgeTopic"])["Attributes"]
    assert attributes["DisplayName"] == "Dixit by mail nudges"


def test_every_created_resource_needs_a_physical_name_from_the_caller(aws: None) -> None:
    with pytest.raises(KeyError, match="CardBucket"):
        create_resources(
            load_template(),
            dynamodb_client=boto3.client("dynamodb"),
            s3_client=boto3.client("s3"),
            sns_client=boto3.client("sns"),
            names={"GameTable": "dixit-games-half"},
        )
    assert boto3.client("dynamodb").list_tables()["TableNames"] == []  # nothing half made


# -- placeholder art ---------------------------------------------------------------------------------


def test_the_stack_seeds_every_official_card_in_catalogue_order() -> None:
    ids = official_card_ids()
    assert len(ids) == len(OFFICIAL_DECKS) * 84 == 924
    assert ids[0] == "base-001"
    assert "odyssey-084" in ids


def test_card_images_live_where_the_api_looks_for_them() -> None:
    assert image_key("base-001") == "cards/base/base-001.webp"
    assert image_key("anniversary-084") == "cards/anniversary/anniversary-084.webp"


def test_seeding_puts_each_cards_generated_image_in_the_bucket(created: dict[str, str]) -> None:
    s3 = boto3.client("s3")
    ids = OFFICIAL_DECKS["base"].card_ids()
    assert seed_card_art(s3, created["CardBucket"], ids) == 84
    listed = s3.list_objects_v2(Bucket=created["CardBucket"], Prefix="cards/base/")
    assert listed["KeyCount"] == 84
    head = s3.head_object(Bucket=created["CardBucket"], Key="cards/base/base-042.webp")
    assert head["ContentType"] == card_art.CONTENT_TYPE
    body = s3.get_object(Bucket=created["CardBucket"], Key="cards/base/base-042.webp")["Body"].read()
    assert body == card_art.render("base-042")


def test_seeding_falls_back_to_put_object_when_the_fast_path_fails(created: dict[str, str]) -> None:
    def broken(bucket: str, key: str, body: bytes, content_type: str) -> None:
        raise AttributeError("moto internals moved")

    s3 = boto3.client("s3")
    assert seed_card_art(s3, created["CardBucket"], ["mirrors-001", "mirrors-002"], fast_put=broken) == 2
    assert (
        s3.head_object(Bucket=created["CardBucket"], Key="cards/mirrors/mirrors-002.webp")["ContentLength"]
        > 0
    )


# -- the SNS tap ---------------------------------------------------------------------------------------


def test_the_tap_shows_what_is_published_to_the_topic(created: dict[str, str]) -> None:
    seen: list[str] = []
    tap = TopicTap(
        boto3.client("sns"),
        boto3.client("sqs"),
        created["NudgeTopic"],
        "dixit-nudges-test-tap",
        report=seen.append,
        wait_seconds=0,
    )
    tap.subscribe()
    boto3.client("sns").publish(
        TopicArn=created["NudgeTopic"],
        Subject="Your turn",
        Message=json.dumps({"game_id": "g_1", "player_id": "p_1"}),
        MessageAttributes={"kind": {"DataType": "String", "StringValue": "nudge"}},
    )
    lines = tap.poll_once()
    assert lines == seen
    (line,) = lines
    assert "subject='Your turn'" in line
    assert '"kind": "nudge"' in line
    assert '"game_id": "g_1"' in line
    assert tap.poll_once() == []  # delivered messages are deleted


def test_describe_passes_non_sns_bodies_through() -> None:
    assert describe("plain text") == "plain text"
    envelope: dict[str, Any] = {"Type": "Notification", "Message": "hi"}
    assert describe(json.dumps(envelope)) == "message=hi"


def test_queues_are_created_only_when_an_sqs_client_is_given_and_ref_gives_their_url(aws: None) -> None:
    created = create_resources(
        load_template(),
        dynamodb_client=boto3.client("dynamodb"),
        s3_client=boto3.client("s3"),
        sns_client=boto3.client("sns"),
        sqs_client=boto3.client("sqs"),
        # Queues added to the template since LOCAL_NAMES was written get a derived name.
        names=local_names(load_template(), LOCAL_NAMES),
    )
    assert created["WebhookQueue"].endswith("/dixit-webhooks-local")
    assert created["WebhookDeadLetterQueue"].endswith("/dixit-webhooks-dlq-local")
    attributes = boto3.client("sqs").get_queue_attributes(
        QueueUrl=created["WebhookQueue"], AttributeNames=["VisibilityTimeout", "RedrivePolicy"]
    )["Attributes"]
    declared = load_template()["Resources"]["WebhookQueue"]["Properties"]
    assert attributes["VisibilityTimeout"] == str(declared["VisibilityTimeout"])
    redrive = json.loads(attributes["RedrivePolicy"])
    assert redrive["deadLetterTargetArn"].endswith(":dixit-webhooks-dlq-local")
    assert int(redrive["maxReceiveCount"]) == declared["RedrivePolicy"]["maxReceiveCount"]


def test_the_configuration_set_is_created_with_its_suppression_options_given_an_sesv2_client(
    aws: None,
) -> None:
    created = create_resources(
        load_template(),
        dynamodb_client=boto3.client("dynamodb"),
        s3_client=boto3.client("s3"),
        sns_client=boto3.client("sns"),
        sesv2_client=boto3.client("sesv2"),
        names=LOCAL_NAMES,
    )
    assert created["EmailConfigurationSet"] == LOCAL_NAMES["EmailConfigurationSet"]
    found = boto3.client("sesv2").get_configuration_set(ConfigurationSetName=created["EmailConfigurationSet"])
    assert sorted(found["SuppressionOptions"]["SuppressedReasons"]) == ["BOUNCE", "COMPLAINT"]
