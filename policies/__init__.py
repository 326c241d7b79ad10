"""Policies the deployed stack must meet, checked on what CloudFormation runs: ``template.yaml`` after
``AWS::LanguageExtensions`` and the SAM transform (:mod:`policies.stack`).

- ``cfn_lint/``: this stack's own rules, as cfn-lint custom rules (``E93xx``). ``tests/stack/policies`` runs
  them, with cfn-lint's built-in rules, on the translated stack, and proves each one fails on a broken stack.
- ``checkov.yaml``: checkov's built-in CloudFormation checks, run by ``make lint`` from a venv of its own
  (``.venv/checkov``, pinned by ``checkov-constraints.txt``: checkov pins boto3 and packaging to versions
  the app cannot use). The checks it skips are listed there, each with its reason.
"""
