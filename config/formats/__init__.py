"""Dates and times as each language writes them (``FORMAT_MODULE_PATH``; docs/i18n.md).

- English: Django's dates ("Dec. 1, 2026"), times as "7:02 AM": Django's "7:02 a.m." ends in a
  full stop, and a sentence around it ("Computed at 7:02 a.m..") doubled it.
- Italian: "1 dicembre 2026", "1 dicembre 2026, 19:02": no leading zero, months and weekdays in
  lower case. Django's Italian catalogue capitalises the month and weekday names, so ours
  translates them again; they are marked here so that makemessages keeps those entries.
"""

from django.utils.translation import gettext_noop

#: The names the "F" (month) and "l" (weekday) format characters print, translated in lower case
#: in locale/it (Django's own catalogue writes "Dicembre", "Martedì").
NAMES = [
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
]
