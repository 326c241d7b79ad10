"""Use cases and the adapters they need (DynamoDB, S3, SNS): everything between a handler and the rules."""
