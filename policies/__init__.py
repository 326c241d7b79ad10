"""Policies the deployed stack must meet, checked on what CloudFormation runs: ``template.yaml`` after
``AWS::LanguageExtensions`` and the SAM transform (:mod:`policies.stack`).

- ``cfn_lint/``: this stack's own rules, as cfn-lint custom rules (``E93xx``). ``tests/policies`` runs them,
  with cfn-lint's built-in rules, on the translated stack, and proves each one fails on a broken stack.
"""
