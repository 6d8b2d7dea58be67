"""Support code shared by the tests (and the bench scripts, which put ``tests/`` on their path)."""
