#!/usr/bin/env python3
"""fake_upstream.py - a canned HTTP server for testing the Prism proxy (test_prism.sh).

Usage: fake_upstream.py PORT OPENAPI_JSON

Answers a few paths with the spec's own examples (which must pass through Prism) or with
deliberately broken responses (which Prism must turn into violations), and counts the
requests it receives at GET /__count, so a test can tell whether Prism forwarded one.
Listens on 127.0.0.1 only; stops on SIGTERM.
"""
import json
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GAME = "/v1/games/2b4f0c1d9e8a7f61"


def example(spec, name):
    return spec["components"]["examples"][name]["value"]


class Handler(BaseHTTPRequestHandler):
    spec = None
    count = 0

    def log_message(self, fmt, *args):
        pass

    def send(self, status, body, content_type="application/json; charset=utf-8", headers=None):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def problem(self, status, code, extra=None):
        body = {"type": "urn:catan:problem:" + code, "title": code, "status": status, "detail": code, "code": code}
        body.update(extra or {})
        self.send(status, body, "application/problem+json", {"X-Request-Id": "r1"})

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/__count":
            return self.send(200, {"count": Handler.count})
        Handler.count += 1
        spec = Handler.spec
        ok = {"X-Request-Id": "r1", "ETag": '"57"'}
        if path == "/healthz":
            return self.send(200, {"status": "ok"}, headers={"X-Request-Id": "r1"})
        if path == "/readyz":  # broken: the status member must be "ready"
            return self.send(200, {"status": "starting"}, headers={"X-Request-Id": "r1"})
        if path == GAME:  # valid, with a member the spec does not know (clients must tolerate it)
            view = dict(example(spec, "GameForSeat"), future_member={"anything": 1})
            return self.send(200, view, headers=ok)
        if path == GAME + "/board":  # broken: no ETag header
            return self.send(200, example(spec, "BeginnerBoard"), headers={"X-Request-Id": "r1"})
        if path == GAME + "/actions":  # broken: a victim of seat 7
            return self.send(200, {"version": 57, "seat": 1, "actions": [{"type": "move_robber", "hex": 3, "victim": 7}]},
                             headers=ok)
        if path == GAME + "/players":  # broken: JSON sent as text/plain
            return self.send(200, example(spec, "PlayersStart"), "text/plain", ok)
        if path == GAME + "/moves":  # valid
            return self.send(200, example(spec, "EventLogStart"), headers=ok)
        if path == GAME + "/trades":  # a 422 where the operation documents none: Prism only warns
            return self.problem(422, "not_your_turn")
        if path.startswith("/v1/games/"):
            return self.problem(404, "game_not_found")
        return self.problem(404, "route_not_found")

    def do_POST(self):
        Handler.count += 1
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        path = self.path.split("?")[0]
        if path == GAME + "/moves":
            return self.send(201, example(Handler.spec, "MoveResultRoll"),
                             headers={"X-Request-Id": "r1", "ETag": '"59"'})
        if path == GAME + "/trades":  # broken: a problem code the spec does not list
            return self.problem(422, "rule_refused")
        return self.problem(404, "route_not_found")


def main():
    port = int(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        Handler.spec = json.load(f)
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
