"""Where the page is: the address to bind, the join link, and its QR code for the terminal.

At a table the phones are on the local network, so ``--lan`` binds this
machine's address there (the one its default route leaves by: a UDP socket
"connected" to a documentation address sends nothing and names it), and
the QR code shows that address. Without it the server binds 127.0.0.1,
for one device. The QR code is drawn with segno (pure Python, no image
library) in Unicode half blocks, which pass the terminal sink unchanged.

>>> join_url("192.168.1.20", 8025, "T" * 43)
'http://192.168.1.20:8025/?t=TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT'
>>> join_url("::1", 8025, "t")
'http://[::1]:8025/?t=t'
"""

from __future__ import annotations

import io
import socket

__all__ = ["join_url", "lan_address", "qr_text", "shown_host"]


def shown_host(host: str) -> str:
    """The host as an address shows it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host


def join_url(host: str, port: int, token: str) -> str:
    """The link the QR code holds: it sets the phone's cookie and opens the page."""
    return f"http://{shown_host(host)}:{port}/?t={token}"


def lan_address() -> str | None:
    """This machine's address on the local network (IPv4), or None when it has none but the loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: a UDP connect picks the route and sends nothing
            address: str = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def qr_text(url: str) -> str:
    """The QR code of ``url`` as lines of half blocks (two modules a character row)."""
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")
