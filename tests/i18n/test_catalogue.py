"""The Italian catalogue is complete, and every string of the code is in it (docs/i18n.md)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from scoring.rules.explain import TEMPLATES
from scoring.shared.i18n import MARKED
from tests.i18n.conftest import PO, ROOT

#: What `makemessages` reads: the code and the templates (not the tests, docs or the venv).
SOURCES = ("manage.py", "config", "clubs", "games", "scoring", "templates", "seeds")
PERCENT = re.compile(r"%\([a-z_]+\)[sdr]|%[sd]")
#: A str.format field, with its conversion and format spec: {count}, {value!r}, {total:+d}.
BRACES = re.compile(r"{[a-z_]*(?:![rsa])?(?::[^{}]*)?}")


def catalogue() -> polib.POFile:
    return polib.pofile(str(PO))


def entries() -> list[polib.POEntry]:
    return [entry for entry in catalogue() if not entry.obsolete]


def key(entry: polib.POEntry) -> tuple[str, str]:
    return (entry.msgctxt or "", entry.msgid)


def test_every_entry_is_translated_and_none_is_fuzzy() -> None:
    untranslated = [e.msgid for e in entries() if not e.translated()]
    fuzzy = [e.msgid for e in entries() if "fuzzy" in e.flags]
    assert not untranslated, f"{len(untranslated)} untranslated: {untranslated[:20]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy: {fuzzy[:20]}"


def test_no_obsolete_entries_linger() -> None:
    assert not catalogue().obsolete_entries()


def translations(entry: polib.POEntry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


@pytest.mark.parametrize("pattern", [PERCENT, BRACES], ids=["%(name)s", "{name}"])
def test_translations_keep_the_placeholders(pattern: re.Pattern[str]) -> None:
    wrong = []
    for entry in (e for e in entries() if e.translated()):
        expected = sorted(set(pattern.findall(entry.msgid_plural or entry.msgid)))
        for text in translations(entry):
            if sorted(set(pattern.findall(text))) != expected:
                wrong.append((entry.msgid, text))
    assert not wrong, wrong


def test_the_marked_explanations_are_the_engines_sentences_word_for_word() -> None:
    from django.utils import translation

    with translation.override("en"):
        marked = {
            reason: {form: str(text) for form, text in forms.items()}
            for reason, forms in MARKED.items()
        }
    assert marked == TEMPLATES


def test_makemessages_finds_no_string_missing_from_the_catalogue(tmp_path: Path) -> None:
    """Run makemessages on a copy of the sources: a new string must come with its translation."""
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(tmp_path)}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "it", "-v", "0"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    fresh = polib.pofile(str(tmp_path / "locale" / "it" / "LC_MESSAGES" / "django.po"))
    committed = {key(entry) for entry in entries()}
    missing = sorted(key(entry) for entry in fresh if key(entry) not in committed)
    assert not missing, (
        f"{len(missing)} strings are not in {PO.relative_to(ROOT)}: run `manage.py makemessages "
        f"-l it --ignore=.venv --ignore=staticfiles` and translate them: {missing[:20]}"
    )
