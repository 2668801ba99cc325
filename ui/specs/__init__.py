"""URL-bound controls of each page (``SPECS`` per module)."""
