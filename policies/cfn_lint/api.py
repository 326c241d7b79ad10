"""API Gateway and CloudFront: throttled, logged, traced, and private origins reached over HTTPS."""

from __future__ import annotations

import json

from cfnlint.rules import CloudFormationLintRule, RuleMatch
from cfnlint.template import Template

from policies.cfn_lint._stack import as_list, properties, resources, stack_references


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


class StagesAreThrottledLoggedTraced(CloudFormationLintRule):
    id = "E9340"
    shortdesc = "API stages throttle every method, log every request as JSON, and trace"
    description = (
        "Every REST API stage has a method setting for all resources and methods (/*, *) with a positive "
        "rate and burst limit, access logs to a log group of the stack in JSON (with the request id), and "
        "X-Ray tracing."
    )
    source_url = "https://docs.aws.amazon.com/apigateway/latest/developerguide/security-best-practices.html"
    tags = ["resources", "apigateway", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for name, stage in resources(template, "AWS::ApiGateway::Stage"):
            props = properties(stage)
            path = ["Resources", name, "Properties"]
            every = [
                setting
                for setting in as_list(props.get("MethodSettings"))
                if (setting.get("ResourcePath"), setting.get("HttpMethod")) == ("/*", "*")
            ]
            if not any(
                _positive(s.get("ThrottlingRateLimit")) and _positive(s.get("ThrottlingBurstLimit"))
                for s in every
            ):
                matches.append(RuleMatch(path, f"{name} does not throttle every method (/*, *)"))
            access = props.get("AccessLogSetting") or {}
            if not stack_references(template, access.get("DestinationArn"), "AWS::Logs::LogGroup"):
                matches.append(RuleMatch(path, f"{name} writes no access log to a log group of the stack"))
            else:
                try:
                    fields = json.loads(str(access.get("Format")))
                except ValueError:
                    fields = None
                if not isinstance(fields, dict) or "$context.requestId" not in fields.values():
                    matches.append(
                        RuleMatch(
                            [*path, "AccessLogSetting"],
                            f"{name} logs access other than as JSON with the request id",
                        )
                    )
            if props.get("TracingEnabled") is not True:
                matches.append(RuleMatch(path, f"{name} does not trace"))
        return matches


class DeploymentsMakeNoStage(CloudFormationLintRule):
    id = "E9341"
    shortdesc = "Deployments create no stage of their own"
    description = (
        "A deployment's StageName creates a stage outside any AWS::ApiGateway::Stage, so without throttling, "
        "logs or tracing (SAM's implicit 'Stage' stage, made unless OpenApiVersion is set)."
    )
    source_url = "https://github.com/aws/serverless-application-model/issues/191"
    tags = ["resources", "apigateway", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        return [
            RuleMatch(["Resources", name, "Properties", "StageName"], f"{name} creates a stage of its own")
            for name, deployment in resources(cfn.template, "AWS::ApiGateway::Deployment")
            if "StageName" in properties(deployment)
        ]


class UsagePlansLimit(CloudFormationLintRule):
    id = "E9342"
    shortdesc = "Usage plans throttle and set a quota"
    description = "Every usage plan has a positive rate and burst limit and a quota."
    source_url = (
        "https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-api-usage-plans.html"
    )
    tags = ["resources", "apigateway", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        matches = []
        for name, plan in resources(cfn.template, "AWS::ApiGateway::UsagePlan"):
            props = properties(plan)
            throttle, quota = props.get("Throttle") or {}, props.get("Quota") or {}
            if not (_positive(throttle.get("RateLimit")) and _positive(throttle.get("BurstLimit"))):
                matches.append(RuleMatch(["Resources", name, "Properties"], f"{name} does not throttle"))
            if not (_positive(quota.get("Limit")) and quota.get("Period")):
                matches.append(RuleMatch(["Resources", name, "Properties"], f"{name} sets no quota"))
        return matches


class DistributionsReachS3Privately(CloudFormationLintRule):
    id = "E9343"
    shortdesc = "CloudFront reads S3 through origin access control and serves viewers over HTTPS"
    description = (
        "Every S3 origin of a distribution signs its requests with an origin access control of the stack "
        "(the bucket stays private), and every cache behavior redirects or refuses plain HTTP."
    )
    source_url = "https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/private-content-restricting-access-to-s3.html"
    tags = ["resources", "cloudfront", "s3", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for name, distribution in resources(template, "AWS::CloudFront::Distribution"):
            config = properties(distribution).get("DistributionConfig") or {}
            path = ["Resources", name, "Properties", "DistributionConfig"]
            for index, origin in enumerate(as_list(config.get("Origins"))):
                if "S3OriginConfig" not in origin:
                    continue
                control = stack_references(
                    template, origin.get("OriginAccessControlId"), "AWS::CloudFront::OriginAccessControl"
                )
                if not control or (origin.get("S3OriginConfig") or {}).get("OriginAccessIdentity"):
                    matches.append(
                        RuleMatch(
                            [*path, "Origins", index],
                            f"{name} reaches {origin.get('Id')} without origin access control",
                        )
                    )
            behaviors = [config.get("DefaultCacheBehavior") or {}, *as_list(config.get("CacheBehaviors"))]
            for behavior in behaviors:
                if behavior.get("ViewerProtocolPolicy") not in ("redirect-to-https", "https-only"):
                    matches.append(RuleMatch(path, f"{name} serves viewers over plain HTTP"))
        return matches
