"""Confirmation: run user-declared examples under Dynamo and compare with the static findings.

Only this package runs user code, always in a child process started with the user's
interpreter (where torch and the project's dependencies live); the static analyzer never
imports torch.
"""
