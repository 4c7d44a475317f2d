"""Lets test modules share helpers kept beside them (tests/adaman_play.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
