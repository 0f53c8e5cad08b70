"""Figures over many matches: standings and ratings, and the export of one row per hand."""
