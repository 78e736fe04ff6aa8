"""tests/config/test_lookups.py on PostgreSQL, where ``field__any`` is ``= ANY(%s)``."""

from __future__ import annotations

import pytest

from tests.config.test_lookups import *  # noqa: F403  (the same tests, collected here too)
from tests.config.test_lookups import players  # noqa: F401  (their fixture)

pytestmark = [pytest.mark.integration, pytest.mark.django_db]
