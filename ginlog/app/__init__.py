"""The edge: the door for people's text, the entry language, views, the recorder, the CLI, audits, importers.
"""
