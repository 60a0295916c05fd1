"""The least a Flask app can do for the crowd's requests: answers of the right sizes and headers, and
nothing else (``bench_club.py crowd --floor`` serves it as it would the app).

It answers what the crowd sends as the app would in shape: creating the match (201, an id and a token),
the first visit (a cookie), a reload of the sheet (an ETag and the app's headers, or 304 when it is the
current one) and a write (its JSON body read; 201 with the deal's number, or 200, and the match as its
answer). Its pages are ``PAGE_BYTES`` long, as the crowded match's gzipped sheet is, and its answers to
writes ``ANSWER_BYTES``, as the app's are (the crowd's writes do not ask for gzip); nothing is drawn,
compressed or stored. Under gunicorn each worker counts versions and deals on its own. What the crowd
measures against it is the server's, Flask's and the load generator's own cost on this machine: the most
any Flask app could reach there. At that rate a reload almost never finds its ETag current, so the
figure says little of 304s.
"""

from __future__ import annotations

import os
import threading

from flask import Flask, Response, jsonify, request

from scorekeeper import SECURITY_HEADERS

PAGE_BYTES = 5_000  # the crowded match's sheet page, gzipped (4.1 KB at 30 deals, 5.5 KB at 60)
ANSWER_BYTES = 12_000  # an answer to a write, not compressed (8.7 KB at 30 deals, 16.7 KB at 60)
SHEET_HEADERS = {"Cache-Control": "private, no-cache", "Vary": "Accept-Encoding, Cookie"}

app = Flask(__name__)
_page = os.urandom(PAGE_BYTES)  # random: as it is sent, with nothing to gain from compressing it
_counts = {"version": 0, "deals": 0}
_lock = threading.Lock()


@app.after_request
def _security_headers(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)  # as the app sends with every answer
    return response


def _written(status: int, added: bool = False) -> Response:
    request.get_json()  # a write's body is read, as the app reads it
    with _lock:
        _counts["version"] += 1
        _counts["deals"] += added
        version, deals = _counts["version"], _counts["deals"]
    body = b'{"number":%d,"match":"' % deals  # the crowd reads the number of an added deal
    body += b"x" * (ANSWER_BYTES - len(body) - 2) + b'"}'
    return Response(body, status=status, mimetype="application/json", headers={"ETag": f'"{version}"'})


@app.get("/")
def home() -> str:
    return "floor"  # the bench waits for this to answer


@app.post("/api/v1/matches")
def create() -> tuple[Response, int]:
    _counts["deals"] = len(request.get_json()["deals"])
    return jsonify({"id": "floor", "edit_token": "floor"}), 201


@app.get("/m/<public_id>")
def sheet(public_id: str) -> Response:
    etag = f'W/"{_counts["version"]}-floor"'
    headers = SHEET_HEADERS | {"ETag": etag}
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers=headers)
    response = Response(_page, mimetype="text/html", headers=headers | {"Content-Encoding": "gzip"})
    if "Cookie" not in request.headers:  # the first visit
        response.set_cookie("device", "floor", httponly=True)
    return response


@app.post("/api/v1/matches/<public_id>/deals")
def add_deal(public_id: str) -> Response:
    return _written(201, added=True)


@app.put("/api/v1/matches/<public_id>/deals/<int:number>")
def replace_deal(public_id: str, number: int) -> Response:
    return _written(200)
