"""``ginlog serve``: the recorder page for phones at the table (its work is in ``ginlog.app.serve``).

Starlette, uvicorn and segno (the ``serve`` extra) are imported only when
the command runs; without them it says how to install them, one line, exit 2.
"""

from __future__ import annotations

import os
from typing import Annotated, Optional

import typer

from ginlog.app.cli.common import EXIT_INVALID, Terminal, fail, require_match_file, usage_line

__all__ = ["serve", "INSTALL"]

#: What a missing extra says.
INSTALL = "ginlog serve needs its extra: pip install 'ginlog[serve]' (Starlette, uvicorn, segno)"


def serve(
    matches: Annotated[Optional[list[str]], typer.Argument(help="The match files served (each must exist).")] = None,
    new: Annotated[Optional[str], typer.Option("--new", help="Start this match file first (with new's options).")] = None,
    player: Annotated[list[str], typer.Option("--player", "-p", help="With --new: a player's name (give two).")] = [],  # noqa: B006 - read, never changed
    rules: Annotated[Optional[str], typer.Option("--rules", "-r", help="With --new: a preset.")] = None,
    set_: Annotated[list[str], typer.Option("--set", "-s", help="With --new: KNOB=VALUE.")] = [],  # noqa: B006 - read, never changed
    title: Annotated[Optional[str], typer.Option("--title", help="With --new: a title.")] = None,
    host: Annotated[Optional[str], typer.Option("--host", help="The address to listen on (default 127.0.0.1).")] = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port (0: any free one).")] = 8025,
    lan: Annotated[bool, typer.Option("--lan", help="Listen on this machine's local-network address (phones at the table).")] = False,
) -> int:
    """Serve a recorder page both players tap on from their phones; print its address and a QR code to join.

    Every tap is the entry the terminal recorder takes, checked by the same
    rules and appended through the same write path. The page and every
    request need the join token the QR code carries; the token is kept
    (mode 0600) beside the first match until the matches end, so a restart
    keeps the phones joined. Ctrl-C stops.

    Example: ginlog serve --lan --new friday.jsonl --player Ann --player Bob

    Example: ginlog serve friday.jsonl --port 8030
    """
    try:
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return usage_line(INSTALL)
    paths = list(matches or [])
    if new is not None:
        from ginlog.app.cli.record import new as start_new

        if os.path.lexists(new):
            return usage_line(f"--new {new}: the file exists; serve it without --new")
        start_new(new, player, rules, set_, title)
        paths.insert(0, new)
    elif player or rules is not None or set_ or title is not None:
        return usage_line("--player, --rules, --set and --title go with --new")
    if not paths:
        return usage_line("name the match files to serve, or start one with --new PATH --player A --player B")
    if lan and host is not None:
        return usage_line("give --lan or --host, not both")
    for p in paths:
        require_match_file(p)
    seen = set()
    for p in paths:
        key = os.path.realpath(p)
        if key in seen:
            return usage_line(f"{p} is named twice")
        seen.add(key)
    if lan:
        from ginlog.app.serve.address import lan_address

        host = lan_address()
        if host is None:
            return usage_line("--lan: this machine has no local-network address; give --host ADDRESS")
    return _run(paths, host or "127.0.0.1", port)


def _run(paths: list[str], host: str, port: int) -> int:
    import socket

    import uvicorn

    from ginlog.app.serve.address import join_url, qr_text, shown_host
    from ginlog.app.serve.routes import Served, build_app
    from ginlog.app.serve.server import server_config
    from ginlog.app.serve.tokens import forget_token, kept_token, token_path
    from ginlog.errors import GinlogError, StoreError
    from ginlog.text import visible

    terminal = Terminal()
    try:
        served = Served.of(paths, token="")
    except GinlogError as exc:
        fail(exc)
    where = token_path(paths[0])
    try:
        served.token = kept_token(where)
    except OSError as exc:
        fail(StoreError(f"cannot keep the join token beside it: {exc.strerror or exc}", rule="file", path=paths[0]))
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as exc:
        terminal.err(f"ginlog: cannot listen on {shown_host(host)}:{port}: {exc.strerror or exc}")
        return EXIT_INVALID
    port = sock.getsockname()[1]
    reach = host
    if host in ("0.0.0.0", "::"):  # every address: the QR code shows the one the phones at the table reach
        from ginlog.app.serve.address import lan_address

        reach = lan_address() or "127.0.0.1"
    url = join_url(reach, port, served.token)
    served.names = frozenset({reach.lower()})  # a name given with --host: the phones send it as their Host
    for h in served.hubs:  # (record text made visible first: the sink would take a newline in a title for a break)
        st = h.session.state
        titled = f"{visible(st.title)}: " if st.title else ""
        a, b = map(visible, st.players)
        terminal.line(f"{visible(h.path)}: {titled}{a} v {b}, at event {h.session.seq}", flush=True)
    terminal.line(f"Serving on http://{shown_host(reach)}:{port}/ (Ctrl-C stops)", flush=True)
    if host.startswith("127.") or host == "::1":
        terminal.line("Only this machine can reach it: --lan serves the phones at the table.", flush=True)
    terminal.line(f"Join on each phone: scan this, or open {url}", flush=True)
    terminal.line(qr_text(url), flush=True)
    config = server_config(build_app(served))
    server = uvicorn.Server(config)
    served.stopping = lambda: server.should_exit
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        if all(h.session.state.finished for h in served.hubs):  # the matches ended: the token's work is done
            forget_token(where)
            for h in served.hubs:
                h.taps.forget()
            terminal.line("Stopped; the matches are over, so the join token is forgotten.", flush=True)
        else:
            terminal.line("Stopped; 'ginlog serve' again resumes (the phones stay joined).", flush=True)
    return 0
