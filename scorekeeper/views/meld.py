"""The meld calculator: tap or type a hand, see its best meld by class, send it into a deal."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Blueprint, abort, render_template, request, url_for

from ..forms.deals import MAX_HANDS
from ..forms.meld import ALL_TRUMPS, MeldForm, hand_size, own_price_groups
from ..rules.cards import Deck, Suit
from ..rules.combinations import MeldClass
from ..rules.errors import CardError, RulesError
from ..rules.house_rules import RULE_SPECS_BY_KEY, HouseRules, MeldTableName
from ..rules.meld import MeldResult, best_melds
from ..rules.meld_prices import NO_PRICES, MeldPrices
from ..rules.numbers import whole_number_or_none
from ..store.reading import find_match, rules_of

bp = Blueprint("meld", __name__)



def sets_param(result: MeldResult) -> str:
    """The sets of a result as the deal form reads them: ``run:1,pinochle:1``."""
    return ",".join(f"{combination.value}:{n}" for combination, n in result.sets().items() if n)


@dataclass(frozen=True)
class DealTarget:
    """The deal form a result goes back to: one hand (a partner's meld line) of a side, of a new deal or of
    deal ``number``."""

    public_id: str
    side: int
    player: int
    number: int | None
    rules: HouseRules

    def query(self) -> dict[str, object]:
        """What the calculator's own links and form carry along."""
        return {"match": self.public_id, "side": self.side, "player": self.player, "deal": self.number}

    def base(self) -> str:
        """The deal form a result goes back to, before its query."""
        if self.number is None:
            return url_for("deals.new", public_id=self.public_id)
        return url_for("deals.edit", public_id=self.public_id, number=self.number)

    def link(self, result: MeldResult) -> str:
        """The deal form with this hand's meld filled in as sets (its partner's left as it is), and the trump
        they were counted for."""
        trump = {"trump": result.trump.value} if result.trump else {}
        query = {'side': self.side, 'player': self.player, 'sets': sets_param(result), **trump}
        return f"{self.base()}?{urlencode(query)}"


def _deal_target() -> DealTarget | None:
    """From ``?match=…&side=…[&player=…][&deal=…]`` or the same hidden fields of the form; 404 if unknown."""
    public_id = request.values.get("match", "")
    if not public_id:
        return None
    row = find_match(public_id)
    side = whole_number_or_none(request.values.get("side", "0"))
    player = whole_number_or_none(request.values.get("player", "") or "0")
    number_text = request.values.get("deal", "")
    number = whole_number_or_none(number_text) if number_text else None
    if (row is None or side is None or side >= len(row.sides) or player is None or player >= MAX_HANDS
            or (number_text and (number is None or not 1 <= number <= len(row.deals)))):
        abort(404, "There is no such match, side or deal to send a meld to.")
    return DealTarget(row.public_id, side, player, number, rules_of(row))


@bp.route("/meld", methods=["GET", "POST"])
def calculator() -> str:
    target = _deal_target()
    defaults = _defaults(target.rules if target else HouseRules())
    # A hand given in a link (?cards=…) is counted too: reading it changes nothing, so no CSRF token.
    form = MeldForm(request.args, **defaults) if request.method == "GET" else MeldForm(**defaults)
    counting = request.method == "POST" or "cards" in request.args
    results: tuple[MeldResult, ...] = ()
    hand_error = ""
    if counting and (form.validate() or (request.method == "GET" and set(form.errors) == {"csrf_token"})):
        try:
            hand = form.hand()
        except CardError as error:
            hand_error = str(error)
        else:
            form.show_hand(hand)
            if len(hand):
                results = best_melds(hand, form.chosen_trump(), form.chosen_table(), _own_prices(target, form))
    links = [target.link(result) for result in results] if target else []
    deck = _safe_deck(form)
    return render_template(
        "meld/calculator.html", form=form, results=results, links=links, hand_error=hand_error,
        counted=counting, deck=deck, suits=tuple(Suit), target=target, meld_classes=tuple(MeldClass),
        decks=tuple(Deck), hand_size=hand_size(deck), held=form.tapped_count(),
        deal_link=target.base() if target else "",
        own_prices=target.rules.meld_prices if target else None,
        own_groups=own_price_groups(target.rules) if target else None,
        table_label=RULE_SPECS_BY_KEY["meld_table"].value_label(target.rules.meld_table) if target else "",
    )


def _own_prices(target: DealTarget | None, form: MeldForm) -> MeldPrices:
    """The match's own meld prices, when the calculator counts on the match's meld table."""
    if target is None or _safe_table(form) is not target.rules.meld_table:
        return NO_PRICES
    return target.rules.meld_prices


def _safe_table(form: MeldForm) -> MeldTableName | None:
    try:
        return form.chosen_table()
    except RulesError:
        return None


def _defaults(rules: HouseRules) -> dict[str, str]:
    """Deck and meld values of the match (or the defaults); a deck chosen in the link brings its own table."""
    deck = request.values.get("deck", rules.deck.value)
    chosen = next((option for option in Deck if option.value == deck), rules.deck)
    table = rules.meld_table if chosen is rules.deck else MeldTableName.natural_for(chosen)
    return {"deck": deck, "table": table.value, "trump": ALL_TRUMPS}


def _safe_deck(form: MeldForm) -> Deck:
    try:
        return form.chosen_deck()
    except RulesError:
        return Deck.DOUBLE
