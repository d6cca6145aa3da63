"""What the agents' native skill listings lose: rules.py (their rules), native.py (where they look), replay.py."""
