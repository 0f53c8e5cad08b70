"""The record: event classes and their JSON form, the schema, and the file's bytes
(format, reader, writer, locks, the known-body fast path).

It knows the game's values (cards, rules) but none of the rules of play.
"""
