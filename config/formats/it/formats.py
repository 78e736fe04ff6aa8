"""Italian: "1 dicembre 2026" (no leading zero; the month in lower case, from locale/it)."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
