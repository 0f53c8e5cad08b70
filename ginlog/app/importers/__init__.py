"""Foreign game records turned into ginlog match files (OpenSpiel's gin_rummy first)."""
