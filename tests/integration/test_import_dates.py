"""A club file's timestamps on PostgreSQL (issue 14 probe item 2): "0001-01-01T00:00:00+14:00"
is a BC timestamp once in UTC, which PostgreSQL stores but Python cannot read back, so `/` and
`/api/v1/clubs/` answered 500 for everyone. The import refuses it at check time."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from clubs.models import Club
from tests.security.conftest import build_world
from tests.security.test_club_transfer import _stranger_file

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.mark.parametrize(
    ("section", "field", "value"),
    [
        ("club", "created_at", "0001-01-01T00:00:00+14:00"),
        ("deals", "entered_at", "9999-12-31T23:00:00-14:00"),
    ],
)
def test_a_timestamp_postgresql_cannot_read_back_is_refused(
    director: Any, tmp_path: Any, section: str, field: str, value: str
) -> None:
    data = _stranger_file(build_world(director, public=True))
    row = data[section] if section == "club" else data[section][0]
    row[field] = value
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="outside the years"):
        call_command("import_club", str(path), stdout=io.StringIO())
    assert not Club.objects.filter(slug="newclub").exists()
    assert Client().get("/").status_code == 200
    assert Client().get("/api/v1/clubs/").status_code == 200
