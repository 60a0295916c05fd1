"""A message about a field is tied to it: the control is marked invalid and points at the message,
whatever the control (text, radio buttons, check box, list), so a screen reader reads them together."""

from __future__ import annotations

import re

import pytest
from conftest import Actions, form_values
from flask.testing import FlaskClient

_CONTROL = re.compile(r"<(?:input|select|textarea)\b[^>]*>", re.S)
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def controls(html: str, name: str) -> list[dict[str, str]]:
    """The attributes of every control named ``name`` (one per radio button)."""
    found = [dict(_ATTR.findall(tag)) for tag in _CONTROL.findall(html)]
    return [attrs for attrs in found if attrs.get("name") == name]


def message(html: str, element_id: str) -> str:
    found = re.search(rf'<p class="field-error" id="{element_id}"[^>]*>(.*?)</p>', html, re.S)
    assert found, f"no message with id {element_id}"
    return found.group(1).strip()


def assert_tied(html: str, name: str, message_id: str) -> None:
    """Each control named ``name`` is invalid and described by the message with ``message_id``."""
    found = controls(html, name)
    assert found, f"no control named {name}"
    for attrs in found:
        assert attrs.get("aria-invalid") == "true", attrs
        assert message_id in attrs.get("aria-describedby", "").split(), attrs
    assert message(html, message_id)


def post_new_match(client: FlaskClient, changes: dict[str, str]) -> str:
    data = form_values(client.get("/matches/new")) | changes
    response = client.post("/matches/new", data=data)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_two_sides_with_one_name_mark_both_name_fields(client: FlaskClient) -> None:
    html = post_new_match(client, {"sides-0-name": "Ann", "sides-1-name": "ann"})
    assert message(html, "sides-error") == "Give each side a different name."
    assert_tied(html, "sides-0-name", "sides-error")
    assert_tied(html, "sides-1-name", "sides-error")
    assert "aria-invalid" not in controls(html, "sides-2-name")[0]
    assert len(re.findall(r'class="field side-name has-error"', html)) == 2


def test_the_sides_message_holds_only_its_own_words(client: FlaskClient) -> None:
    long_name = "x" * 41
    html = post_new_match(client, {"sides-0-name": long_name, "sides-1-name": long_name})
    assert message(html, "sides-error") == "Give each side a different name."
    assert message(html, "sides-0-name-error") == "A side&#39;s name has at most 40 characters."
    assert sorted(controls(html, "sides-0-name")[0]["aria-describedby"].split()) == [
        "sides-0-name-error", "sides-error"]


def test_an_unknown_game_marks_every_game_button(client: FlaskClient) -> None:
    html = post_new_match(client, {"preset": "bridge"})
    assert_tied(html, "preset", "preset-error")
    assert message(html, "preset-error") == "Choose one of the games."


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("must_win_own_bid", "maybe", "Must win on your own bid: &#39;maybe&#39; is not allowed"),
        ("deck", "triple", "Deck: &#39;triple&#39; is not allowed"),
        ("target", "333", "Play to: &#39;333&#39; is not allowed"),
    ],
)
def test_a_bad_house_rule_marks_its_control_and_keeps_its_help(
    client: FlaskClient, field: str, value: str, fragment: str
) -> None:
    html = post_new_match(client, {f"rules-{field}": value})
    assert_tied(html, f"rules-{field}", f"rules-{field}-error")
    assert message(html, f"rules-{field}-error").startswith(fragment)
    assert "Not a valid choice" not in html
    for attrs in controls(html, f"rules-{field}"):
        assert f"rules-{field}-help" in attrs["aria-describedby"].split()


def test_a_deal_without_bidder_marks_the_bidder_buttons(actions: Actions) -> None:
    public_id = actions.create_match()
    response = actions.add_deal(public_id, None, 60, (67, 20))
    assert response.status_code == 422
    assert_tied(response.get_data(as_text=True), "bidder", "bidder-error")


def test_a_side_marked_without_tricks_that_has_trick_points_marks_its_check_box(
    client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "50", "sides-0-hands-0-meld": "20", "sides-0-tricks": "30",
        "sides-1-hands-0-meld": "4", "sides-1-tricks": "20", "sides-1-took": "none", "last_trick": "0",
    }
    response = client.post(f"/m/{public_id}/deals/new", data=data)
    assert response.status_code == 422
    assert_tied(response.get_data(as_text=True), "sides-1-took", "sides-1-took-error")
