"""Policies the deployed stack must meet, checked on what CloudFormation runs: ``template.yaml`` after
``AWS::LanguageExtensions`` and the SAM transform (:mod:`policies.stack`).
"""
