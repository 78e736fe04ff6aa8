"""`check --deploy` warns when production mails links to the default or a plain-http SITE_URL
(docs/deploy.md, "Checking a production configuration"; issue 32)."""

import pytest
from django.core.checks import run_checks
from django.test import override_settings

MAIL = {"DEBUG": False, "EMAIL_HOST": "smtp.example.org"}


def _ids() -> set[str]:
    return {m.id for m in run_checks(include_deployment_checks=True) if m.id}


@pytest.mark.parametrize(
    "site_url", ["http://127.0.0.1:8000", "http://scores.club.example", "scores.club.example"]
)
def test_mail_with_the_default_or_a_plain_http_site_url_warns(site_url):
    with override_settings(**MAIL, SITE_URL=site_url):
        assert "backscore.W001" in _ids()


@pytest.mark.parametrize(
    "overrides",
    [
        {**MAIL, "SITE_URL": "https://scores.club.example"},
        # no mail server: nothing is mailed, the default does no harm
        {"DEBUG": False, "EMAIL_HOST": "", "SITE_URL": "http://127.0.0.1:8000"},
        # `make run`
        {"DEBUG": True, "EMAIL_HOST": "smtp.example.org", "SITE_URL": "http://127.0.0.1:8000"},
    ],
)
def test_a_public_https_site_url_or_no_mail_passes(overrides):
    with override_settings(**overrides):
        assert "backscore.W001" not in _ids()
