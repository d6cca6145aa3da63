"""Check skills against the Agent Skills spec and for files they point at; findings as values."""
