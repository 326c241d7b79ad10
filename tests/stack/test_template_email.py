"""template.yaml, email notifications: who may send mail, the bounce and complaint route, the digest's
hourly schedule."""

from __future__ import annotations

from typing import Any

import pytest
from policies.stack import translate

from local_stack.template import load_template

from .test_template import allows, of_type

# The stream and the sweep only queue notifications: the outbox's function mails them.
MAIL_SENDERS = ("ApiFunction", "NotifyDeliveryFunction", "DigestFunction")


@pytest.fixture(scope="module")
def stack() -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return translate(load_template(), EmailFrom="dixit@example.com")


def variables(stack: dict[str, Any], function: str) -> dict[str, Any]:
    variables: dict[str, Any] = stack["Resources"][function]["Properties"]["Environment"]["Variables"]
    return variables


def test_every_function_that_sends_notification_mail_is_told_how_and_may_send(stack: dict[str, Any]) -> None:
    for function in MAIL_SENDERS:
        told = variables(stack, function)
        assert {"EMAIL_FROM", "EMAIL_CONFIGURATION_SET", "WEB_BASE_URL", "UNSUBSCRIBE_SECRET"} <= set(told)
        assert told["UNSUBSCRIBE_SECRET"] == {"Ref": "UnsubscribeSecret"}
        assert allows(stack, function, "ses:SendEmail", "EmailConfigurationSet"), function
    assert stack["Parameters"]["UnsubscribeSecret"]["NoEcho"] is True
    for function in ("GameStreamFunction", "SweepFunction"):
        assert not allows(stack, function, "ses:SendEmail", "EmailConfigurationSet"), function
        assert "EMAIL_FROM" not in variables(stack, function), function


def test_bounces_and_complaints_reach_the_mail_events_function_through_eventbridge(
    stack: dict[str, Any],
) -> None:
    (destination,) = of_type(stack, "AWS::SES::ConfigurationSetEventDestination").values()
    props = destination["Properties"]
    assert props["ConfigurationSetName"] == {"Ref": "EmailConfigurationSet"}
    assert sorted(props["EventDestination"]["MatchingEventTypes"]) == ["bounce", "complaint"]
    assert (
        "event-bus/default" in props["EventDestination"]["EventBridgeDestination"]["EventBusArn"]["Fn::Sub"]
    )
    rules = {
        target["Arn"]["Fn::GetAtt"][0]: rule["Properties"]
        for rule in of_type(stack, "AWS::Events::Rule").values()
        for target in rule["Properties"]["Targets"]
    }
    pattern = rules["MailEventsFunction"]["EventPattern"]
    assert pattern["source"] == ["aws.ses"]
    assert sorted(pattern["detail-type"]) == ["Email Bounced", "Email Complaint Received"]
    assert rules["DigestFunction"]["ScheduleExpression"] == "rate(1 hour)"
    assert stack["Resources"]["DigestFunction"]["Properties"]["Handler"] == "handlers.digest.lambda_handler"
    assert (
        stack["Resources"]["MailEventsFunction"]["Properties"]["Handler"]
        == "handlers.mail_events.lambda_handler"
    )
