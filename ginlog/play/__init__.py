"""Play: the state of a match (seats 0 and 1), the reducer and every rule of play, the snapshotting fold.

Pure: no files, no clock, no terminal.
"""
