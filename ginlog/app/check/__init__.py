"""Checking many files: the walk over paths, and the audit's verdicts and summary."""
