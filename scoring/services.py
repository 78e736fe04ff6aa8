"""Standings workflows (issue 6 fills in the refresh and rebuild)."""


def queue_session_refresh(session_id: int) -> None:
    """Queue a refresh of a session's standings after the current transaction commits."""
