"""``python -m scoring deal|rubber|chicago`` (see scoring/cli.py); needs no Django."""

import sys

from scoring.cli import main

sys.exit(main())
