"""English: Django's formats, with times as "7:02 AM" (no full stop to double in a sentence)."""

TIME_FORMAT = "g:i A"
DATETIME_FORMAT = "N j, Y, g:i A"
SHORT_DATETIME_FORMAT = "m/d/Y g:i A"
