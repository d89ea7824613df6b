"""``python3 -m tools.lab JOB_DIR ...``: run.main (docs/lab.md)."""

import sys

from .run import main

sys.exit(main())
