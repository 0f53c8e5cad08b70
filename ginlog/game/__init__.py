"""The game itself: cards, melds and the exact solver, rule knobs and presets, pricing a hand's facts.

Pure and the innermost layer: it knows nothing of events, files or terminals.
"""
