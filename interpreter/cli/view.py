"""``warbook view``: a saved game as one self-contained HTML page, written and optionally served.

``warbook view LOG [-o FILE.html] [--side SIDE]… [--serve [--port N]]``.  Without ``--side`` the page
has a view for every side and the referee's (every counter as it is): a page to look at a game
together afterwards.  With ``--side`` it has only those sides' views, each made by the engine from
what that side may see (``interpreter.viewer``): a page to hand to one player.  ``--serve``
serves the page on localhost (127.0.0.1) until interrupted.  Exit 0, 1 for a log that does not
replay, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...dsl.diagnostics import RulesError
from .common import EXIT_CLEAN, EXIT_FINDINGS, print_diagnostics, usage, write_atomically
from .render import output_problem, side_problem


def register(sub) -> None:
    view = sub.add_parser("view", help="a saved game as an HTML page: map, step slider, narrative and dice")
    view.add_argument("log", help="a log written by `warbook play --log`")
    view.add_argument("-o", "--output", metavar="FILE", help="the page (default: the log's name with .html)")
    view.add_argument("--side", action="append", default=[], metavar="SIDE",
                      help="only this side's view (repeat for several); default: every side's and the referee's")
    view.add_argument("--serve", action="store_true", help="also serve the page on http://127.0.0.1:PORT/ "
                      "until interrupted")
    view.add_argument("--port", type=int, default=8000, help="with --serve: the port (default: 8000; 0: any free)")
    view.set_defaults(run=run_view)


def run_view(args: argparse.Namespace) -> int:
    from ..game import Game
    from ..viewer import page

    output = args.output or str(Path(args.log).with_suffix(".html"))
    problem = output_problem(output, (".html", ".htm"))
    if problem:
        return usage(problem)
    try:
        game = Game.load(args.log)
    except RulesError as exc:
        print_diagnostics(exc.diagnostics)
        return EXIT_FINDINGS
    for side in args.side:
        problem = side_problem(side, game.ctx.rules.sides)
        if problem:
            return usage(problem)
    sides = list(dict.fromkeys(args.side)) or [*game.ctx.rules.sides, None]
    text = page(game, sides)
    try:
        write_atomically(Path(output), text.encode("utf-8"))
    except OSError as exc:
        return usage(f"cannot write {output!r}: {exc.strerror or exc}")
    print(f"wrote {output}")
    if args.serve:
        return serve(text, args.port)
    return EXIT_CLEAN


def serve(text: str, port: int) -> int:
    """Serve ``text`` as the page at ``/`` on 127.0.0.1 until interrupted (Ctrl-C)."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    body = text.encode("utf-8")

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found = self.path in ("/", "/index.html")
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8" if found else "text/plain")
            payload = body if found else b"not found: the page is at /\n"
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args) -> None:  # quiet: the command prints only its address
            pass

    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), Page)
    except OSError as exc:
        return usage(f"cannot serve on port {port}: {exc.strerror or exc} (try --port 0)")
    print(f"serving on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("stopped", file=sys.stderr)
    return EXIT_CLEAN
