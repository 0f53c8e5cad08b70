"""``ginlog serve``: the recorder page both players tap on, from their phones, at the table.

One module per idea: :mod:`~ginlog.app.serve.routes` (the ASGI app, its
routes and limits), :mod:`~ginlog.app.serve.tokens` (the join token),
:mod:`~ginlog.app.serve.taps` (the answers kept per tap id, across a
restart), :mod:`~ginlog.app.serve.page_state` (the page's state JSON and its
buttons, from the entry table), :mod:`~ginlog.app.serve.hub` (one served
match: its session and the tap flow), :mod:`~ginlog.app.serve.stream` (the
event stream) and :mod:`~ginlog.app.serve.address` (the address and the QR
code printed). Starlette, uvicorn and segno (the ``serve`` extra) are
imported by ``routes``, by ``address`` when it draws a QR code, and by the
command, so nothing of them loads unless ``ginlog serve`` runs.
"""
