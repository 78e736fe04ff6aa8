"""Errors shared by every app."""


class Conflict(Exception):
    """A write that contradicts what is stored (HTTP 409): explain it in the message."""
