"""``python -m scoring deal|rubber|chicago`` (see scoring/rules/cli.py); needs no Django."""

import sys

from scoring.rules.cli import main

sys.exit(main())
