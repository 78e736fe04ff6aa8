"""E-mail settings come from the environment (docs/deploy.md; issue 26, item 5): SMTP from
`EMAIL_URL` or `EMAIL_HOST` and its companions, the console with neither (`make run`)."""

from tests.config.test_settings import settings_under

SMTP = "django.core.mail.backends.smtp.EmailBackend"
#: What `make run` sets; DEBUG is off by default and then SECRET_KEY is required.
MAKE_RUN = {"DEBUG": "true"}
PRODUCTION = {"SECRET_KEY": "x" * 64}


def test_with_nothing_set_mail_is_printed_on_the_console():
    s = settings_under(MAKE_RUN)
    assert s.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
    assert s.DEFAULT_FROM_EMAIL == s.SERVER_EMAIL == "Backscore <noreply@localhost>"
    assert s.EMAIL_TIMEOUT == 10
    assert s.PASSWORD_RESET_TIMEOUT == 72 * 3600


def test_an_email_url_names_the_smtp_server():
    s = settings_under(
        {
            **PRODUCTION,
            "EMAIL_URL": "smtp+tls://scores%40club.example:s3cr3t@smtp.example.org:587",
            "DEFAULT_FROM_EMAIL": "Scores <scores@example.org>",
            "SERVER_EMAIL": "errors@example.org",
        }
    )
    assert s.EMAIL_BACKEND == SMTP
    assert (s.EMAIL_HOST, s.EMAIL_PORT) == ("smtp.example.org", 587)
    # %40 is an @ in the user name (docs/deploy.md)
    assert (s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD) == ("scores@club.example", "s3cr3t")
    assert (s.EMAIL_USE_TLS, s.EMAIL_USE_SSL) == (True, False)
    assert s.DEFAULT_FROM_EMAIL == "Scores <scores@example.org>"
    assert s.SERVER_EMAIL == "errors@example.org"


def test_an_smtps_url_uses_ssl():
    s = settings_under({**PRODUCTION, "EMAIL_URL": "smtp+ssl://smtp.example.org:465"})
    assert (s.EMAIL_BACKEND, s.EMAIL_PORT, s.EMAIL_USE_SSL, s.EMAIL_USE_TLS) == (
        SMTP,
        465,
        True,
        False,
    )


def test_or_the_host_and_its_companions():
    s = settings_under(
        {
            **PRODUCTION,
            "EMAIL_HOST": "smtp.example.org",
            "EMAIL_PORT": "587",
            "EMAIL_HOST_USER": "mailer",
            "EMAIL_HOST_PASSWORD": "s3cr3t",
            "EMAIL_USE_TLS": "true",
            "EMAIL_TIMEOUT": "5",
            "PASSWORD_RESET_TIMEOUT_HOURS": "24",
        }
    )
    assert s.EMAIL_BACKEND == SMTP
    assert (s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS) == ("smtp.example.org", 587, True)
    assert (s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD) == ("mailer", "s3cr3t")
    assert s.EMAIL_TIMEOUT == 5
    assert s.PASSWORD_RESET_TIMEOUT == 24 * 3600


def test_the_site_address_for_links_in_mail_defaults_to_make_run_and_loses_its_slash():
    assert settings_under(MAKE_RUN).SITE_URL == "http://127.0.0.1:8000"
    s = settings_under({**PRODUCTION, "SITE_URL": "https://scores.club.example/"})
    assert s.SITE_URL == "https://scores.club.example"


def test_beat_sends_the_results_mail_left_waiting_every_five_minutes_unless_told():
    sweep = settings_under(MAKE_RUN).CELERY_BEAT_SCHEDULE["send-waiting-results-mail"]
    assert (sweep["task"], sweep["schedule"]) == ("scoring.tasks.send_waiting_results_mail", 300)
    told = settings_under({**MAKE_RUN, "RESULTS_MAIL_SWEEP_SECONDS": "60"})
    assert told.CELERY_BEAT_SCHEDULE["send-waiting-results-mail"]["schedule"] == 60
