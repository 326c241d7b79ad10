"""The S3 notification of template.yaml, locally: uploads under a prefix run a function with the S3 event.

moto server delivers a bucket's ObjectCreated notifications to SQS (not to Lambda), so the bucket notifies
a queue with the template's own event and prefix filter, and a thread hands each S3 event it receives to
the function's handler, as Lambda's S3 trigger would.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from local_stack.poller import Loop, Poller
from local_stack.runtime import HandlerResolver, LambdaContext

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_sqs import SQSClient

LOG = logging.getLogger("local_stack.s3")


@dataclass(frozen=True, slots=True)
class S3Trigger:
    """One ``S3`` event of a function in the template."""

    function: str
    bucket_resource: str
    events: tuple[str, ...]
    prefix: str


def s3_triggers(template: dict[str, Any]) -> list[S3Trigger]:
    triggers = []
    for logical_id, resource in (template.get("Resources") or {}).items():
        if not isinstance(resource, dict) or resource.get("Type") != "AWS::Serverless::Function":
            continue
        for event in ((resource.get("Properties") or {}).get("Events") or {}).values():
            if event.get("Type") != "S3":
                continue
            props = event["Properties"]
            events = props["Events"]
            rules = ((props.get("Filter") or {}).get("S3Key") or {}).get("Rules") or []
            prefix = next((r["Value"] for r in rules if r.get("Name", "").lower() == "prefix"), "")
            triggers.append(
                S3Trigger(
                    logical_id,
                    props["Bucket"]["Ref"],
                    tuple(events if isinstance(events, list) else [events]),
                    prefix,
                )
            )
    return triggers


class UploadTrigger(Poller):
    """Notify a queue on the bucket's matching uploads and run ``handler`` on each S3 event."""

    def __init__(
        self,
        s3_client: S3Client,
        sqs_client: SQSClient,
        bucket: str,
        trigger: S3Trigger,
        handler: HandlerResolver,
        *,
        region: str = "us-east-1",
        wait_seconds: int = 1,
    ) -> None:
        super().__init__(LOG)
        self.s3 = s3_client
        self.sqs = sqs_client
        self.bucket = bucket
        self.trigger = trigger
        self.handler = handler
        self.region = region
        self.wait_seconds = wait_seconds
        self.queue_url = ""

    def subscribe(self) -> None:
        self.queue_url = self.sqs.create_queue(QueueName=f"{self.bucket}-{self.trigger.function}")["QueueUrl"]
        queue_arn = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["QueueArn"])[
            "Attributes"
        ]["QueueArn"]
        configuration: Any = {
            "Id": self.trigger.function,
            "QueueArn": queue_arn,
            "Events": list(self.trigger.events),
        }
        if self.trigger.prefix:
            configuration["Filter"] = {
                "Key": {"FilterRules": [{"Name": "prefix", "Value": self.trigger.prefix}]}
            }
        self.s3.put_bucket_notification_configuration(
            Bucket=self.bucket, NotificationConfiguration={"QueueConfigurations": [configuration]}
        )

    def poll_once(self) -> list[Any]:
        response = self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=self.wait_seconds
        )
        results = []
        for message in response.get("Messages", []):
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
            event = json.loads(message.get("Body") or "{}")
            if "Records" not in event:  # moto's s3:TestEvent when the notification is set up
                continue
            results.append(self.invoke(event))
        return results

    def invoke(self, event: dict[str, Any]) -> Any:
        function = self.trigger.function
        context = LambdaContext(function_name=function, region=self.region)
        ran, result = self.run_handler(
            function, self.handler, event, context, failure="failed on an S3 event"
        )
        if ran:
            LOG.info("%s ran: %s", function, result)
        return result

    def loops(self) -> list[Loop]:
        return [Loop(f"s3-{self.trigger.function}", "polling uploads", self.poll_once)]  # a long poll

    def start(self) -> Self:
        self.subscribe()
        return super().start()
