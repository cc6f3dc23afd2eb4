"""The statistical regression check of every mode against its stored baseline."""
