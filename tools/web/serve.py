#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Serve a built page folder (tools/web/build.py) on 127.0.0.1:

    python tools/web/serve.py DIR [--port 8000]

Python's http.server with the MIME types the page needs (.wasm
application/wasm for streaming compilation, .mjs text/javascript) and no
caching, so a rebuilt page is what a reload gets."""

import argparse
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **{
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json", ".bin": "application/octet-stream", ".css": "text/css",
        ".html": "text/html; charset=utf-8"})

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, fmt, *args):  # quiet: one line per request is noise here
        pass


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--host", default="127.0.0.1")
    a = p.parse_args(argv)
    server = http.server.ThreadingHTTPServer((a.host, a.port), functools.partial(Handler, directory=a.dir))
    print("web: serving %s on http://%s:%d/ (Ctrl-C stops)" % (a.dir, a.host, server.server_address[1]),
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
