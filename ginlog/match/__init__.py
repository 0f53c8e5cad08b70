"""The seam between the record and play: reading a match file through visitors, and the one write path.
"""
