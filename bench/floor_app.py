"""The least a server can do for the crowd's requests: a Flask app that answers them with bytes of the
right sizes and does nothing else (``bench_club.py crowd --floor`` serves it as it would the app).

It answers what the crowd sends as the app would in shape: creating the match (201, an id and a token),
the first visit (a cookie), a reload of the sheet (an ETag, or 304 when it is the current one) and a
write (its JSON body read; 201 with the deal's number, or 200). Its pages are ``PAGE_BYTES`` long and its
answers to writes ``ANSWER_BYTES``, as the crowded match's gzipped sheet and write answers are, sent as
they are: nothing is drawn, compressed or stored. What the crowd measures against it is the server's
and the load generator's own cost on this machine, the most any app could reach there.
"""

from __future__ import annotations

import os
import threading

from flask import Flask, Response, jsonify, request

PAGE_BYTES = 5_000  # the crowded match's sheet page, gzipped (4.1 KB at 30 deals, 5.5 KB at 60)
ANSWER_BYTES = 1_100  # an answer to a write, gzipped (0.9 to 1.3 KB)

app = Flask(__name__)
_page = os.urandom(PAGE_BYTES)  # random: as it is sent, with nothing to gain from compressing it
_answer = os.urandom(ANSWER_BYTES)
_version = {"now": 0}  # goes up by one with each write, as the match's version does
_lock = threading.Lock()


def _next_version() -> int:
    request.get_json()  # a write's body is read, as the app reads it
    with _lock:
        _version["now"] += 1
        return _version["now"]


def _written(version: int, status: int, body: bytes = _answer) -> Response:
    return Response(body, status=status, mimetype="application/json", headers={"ETag": f'"{version}"'})


@app.get("/")
def home() -> str:
    return "floor"  # the bench waits for this to answer


@app.post("/api/v1/matches")
def create() -> tuple[Response, int]:
    return jsonify({"id": "floor", "edit_token": "floor"}), 201


@app.get("/m/<public_id>")
def sheet(public_id: str) -> Response:
    etag = f'W/"{_version["now"]}-floor"'
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers={"ETag": etag})
    response = Response(_page, mimetype="text/html")
    response.headers.update({"ETag": etag, "Content-Encoding": "gzip", "Set-Cookie": "device=floor; HttpOnly"})
    return response


@app.post("/api/v1/matches/<public_id>/deals")
def add_deal(public_id: str) -> Response:
    version = _next_version()
    return _written(version, 201, b'{"number":%d}' % version)  # the crowd reads the number


@app.put("/api/v1/matches/<public_id>/deals/<int:number>")
def replace_deal(public_id: str, number: int) -> Response:
    return _written(_next_version(), 200)
