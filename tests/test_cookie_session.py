"""The session cookie: a checked cookie is not checked again, and that changes nothing the app sees."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, session

from scorekeeper.cookie_session import CheckedCookieSessionInterface


def make_app(size: int = 8) -> Flask:
    app = Flask(__name__)
    app.secret_key = "cookie-test"
    app.session_interface = CheckedCookieSessionInterface(size)

    @app.get("/set/<value>")
    def set_value(value: str) -> str:
        session["items"] = [value]
        return "ok"

    @app.get("/get")
    def get_value() -> str:
        return ",".join(session.get("items", []))

    @app.get("/touch")
    def touch() -> str:
        session["items"].append("changed in place")  # modifies the list, not the cookie
        return "ok"

    return app


def cookie_after(app: Flask, value: str) -> str:
    client = app.test_client()
    client.get(f"/set/{value}")
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def read(app: Flask, cookie: str) -> str:
    client = app.test_client()
    client.set_cookie("session", cookie)
    return client.get("/get").get_data(as_text=True)


def test_a_cookie_reads_the_same_the_first_time_and_the_next() -> None:
    app = make_app()
    cookie = cookie_after(app, "abc")
    assert read(app, cookie) == "abc"
    assert len(app.session_interface) == 1  # type: ignore[arg-type]
    assert read(app, cookie) == "abc"


def test_a_tampered_cookie_is_an_empty_session() -> None:
    app = make_app()
    cookie = cookie_after(app, "abc")
    read(app, cookie)
    tampered = cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB")
    assert read(app, tampered) == ""


def test_a_kept_cookie_too_old_to_accept_is_refused() -> None:
    app = make_app()
    cookie = cookie_after(app, "abc")
    assert read(app, cookie) == "abc"
    app.permanent_session_lifetime = timedelta(seconds=-1)  # every cookie is now too old
    assert read(app, cookie) == ""


def test_a_change_made_in_one_request_does_not_reach_the_next() -> None:
    app = make_app()
    cookie = cookie_after(app, "abc")
    client = app.test_client()
    client.set_cookie("session", cookie)
    client.get("/touch")
    assert read(app, cookie) == "abc"


def test_at_most_size_cookies_are_kept() -> None:
    app = make_app(size=2)
    cookies = [cookie_after(app, value) for value in ("a", "b", "c")]
    for cookie in cookies:
        read(app, cookie)
    assert len(app.session_interface) == 2  # type: ignore[arg-type]
    assert [read(app, cookie) for cookie in cookies] == ["a", "b", "c"]


def test_a_new_secret_key_signs_with_the_new_key() -> None:
    app = make_app()
    old = cookie_after(app, "abc")
    app.secret_key = "another-key"
    assert read(app, old) == ""  # never read before, so checked under the new key: refused
    assert read(app, cookie_after(app, "xyz")) == "xyz"
