"""What a problem says to a player: one template per problem code, declared once.

A template is keyed by its problem code's value (``bid_missing``), or by the code and a variant after a dot
where one code is told in several ways (``impossible_sets.hand``). A few keys are no code: ``side`` puts a
side's name before a message; ``name.side``, ``character.control`` and ``allowed.switch`` are the words a
message names a thing by. Fields stand in braces, ``{bid}``; ``{deals:,}`` groups a whole number's thousands
(1,000); ``{{`` is a brace. Those are all a template may use: tools/make_twin_declarations.py writes the
templates into the browser twin's declarations, and the twin fills them in the same way
(tests/test_messages.py holds both to that).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .problems import Problem, ProblemCode

BASIC_MESSAGES: Final[Mapping[str, str]] = {
    "contradiction": "deal {deal}: {message}",
    # Cards
    "not_a_suit": "'{text}' is not a suit (use S, H, D or C)",
    "not_a_rank": "'{text}' is not a rank (use A, 10, K, Q, J or 9)",
    "not_a_card": "'{text}' is not a card",
    "hand_counts": "a hand needs one count for each of the 24 cards",
    "card_not_in_deck": "{card} is not in a {deck}",
    "too_many_copies": "{held} {card} but a {deck} has {copies}",
    "unknown_combination": "'{key}' is not a meld combination (use {names})",
    "out_of_range.sets": "{combination}: {sets} sets is not a number of sets",
    # A hand's meld told in a few words (store/describe.py, the card faces)
    "meld.off_table": "{name} not on this table",
    "meld.none": "no meld",
    "meld.breakdown": "{lines} = {total} ({suit} trump)",
}
"""The messages of cards, meld sets and contradictions, and a hand's meld in words: apart, so that a script that
reads cards (the card faces) carries no other (static/js/rules/problems.js)."""

MESSAGES: Final[Mapping[str, str]] = {
    **BASIC_MESSAGES,
    # Joined messages
    "side": "{side}: {message}",
    # Numbers and names typed
    "not_a_number.typed": "'{text}' is not a whole number",
    "not_a_number.empty": "type a whole number",
    "out_of_range.digits": "'{text}' is too large: at most {digits} digits",
    "too_long.name": "{what} has at most {maximum} characters",
    "bad_character.name": "{what} cannot hold the {kind} U+{code}",
    "character.surrogate": "unpaired surrogate",
    "character.invisible": "invisible character",
    "character.line_separator": "line separator",
    "character.control": "control character",
    "name": "a name",
    "name.match": "a match's name",
    "name.side": "a side's name",
    "name.player": "a player's name",
    # JSON text
    "not_json": "not valid JSON: {reason} (line {line}, column {column})",
    "not_json.unplaced": "not valid JSON: {reason}",  # the phone's reader (JSON.parse) names no line
    "too_deep": "lists and objects nested more than {depth} deep",
    "out_of_range.json_digits": "a number with more than {digits} digits ({start}…) is far too large",
    "duplicate_key": "the key {key} is given twice; give it once",
    "bad_character.surrogate": "text holds half of a surrogate pair (such as \\ud800), which is no character",
    # The match file
    "wrong_type.match": "a match file is a JSON object",
    "wrong_type.object": "must be an object",
    "wrong_type.list": "must be a list",
    "wrong_type.text": "must be text",
    "wrong_type.switch": "must be true or false",
    "wrong_type.cards": 'must be a list of cards such as "AH" or "10S"',
    "wrong_type.tricks": 'use a number, {{"counters": N}} or {{"cards": {{"A": n, …}}}}',
    "not_a_number": "must be a whole number",
    "out_of_range.at_least": "must be at least {minimum}",
    "out_of_range.at_most": "must be at most {maximum:,}",
    "bidder_unknown.index": "must be a side's index, from 0 to {last}",
    "unknown_key": "unknown key (allowed: {allowed})",
    "unknown_key.total": "unknown key (use either total, or meld and tricks)",
    "wrong_format": 'expected "{format}"',
    "too_many_deals.file": "a match holds at most {most:,} deals; this file has {deals:,}",
    "missing_key.bidder": "missing (the index of the side that won the auction, or null)",
    "missing_key.bid": "missing (the bid that won the auction)",
    "bid_without_bidder": "a deal with no bidder has no bid",
    "thrown_in_without_bidder": "only a deal with a bidder can be thrown in",
    "side_count.deal": "needs one entry for each of the {sides} sides",
    "side_count.match": "a match has {least} to {most} sides",
    "too_many_players.meld": "a side shows the meld of at most {most} hands, one a player",
    "too_many_players": "a side has at most {most} players",
    "name_missing.side": "a side needs a name",
    "name_missing.player": "a player needs a name (leave out a player with none)",
    "duplicate_name": "another side has this name",
    "duplicate_player": "{player} already plays in this match",
    # House rules and meld prices
    "unknown_rule": "'{key}' is not a house rule",
    "bad_rule_value": "{rule}: '{shown}' is not allowed; use {allowed}",
    "allowed.number": "a whole number from {minimum} to {maximum}",
    "allowed.number_step": "a whole number from {minimum} to {maximum} in steps of {step}",
    "allowed.switch": "on or off",
    "allowed.choice": "one of {choices}",
    "allowed.prices": "per combination, the prices of 1 to 4 sets (null: not priced)",
    "allowed.too_large": "a number that large",
    "prices": "Meld prices: {message}",
    "prices.price": "{combination}, {sets}: {message}",
    "prices.one_set": "1 set",
    "prices.sets": "{sets} sets",
    "wrong_type.prices": 'the meld prices must be an object such as {{"pinochle": [40, null]}}',
    "wrong_type.price_list": "{combination}: give the prices of 1 to {groups} sets as a list, null where not priced",
    "not_a_number.price": "the price must be a whole number or null",
    "out_of_range.price": "the price must be from 0 to {most:,}",
    "priced_one_at_a_time": "{combination}s are priced one at a time, so give only the price of one",
    # The contract
    "too_many_deals": "this match already has {deals:,} deals, the most a match may hold; start a new match",
    "side_count": "the deal has {deal_sides} sides but the match has {match_sides}",
    "bidder_missing": "who won the auction? The bidder is missing",
    "out_without_bidder": "only bidders can announce going out",
    "forced_without_bidder": "a forced bid needs the side that took it",
    "thrown_in_without_auction": "a deal with no auction cannot be thrown in",
    "bidder_unknown": "bidder {bidder} is not a side of this match",
    "bid_missing": "the bid is missing",
    "bid_below_minimum": "bid {bid} is below the minimum opening bid of {minimum}",
    # Who bid and who dealt
    "bid_by_not_bidder": "{player} does not play on the bidding side",
    "dealer_unknown": "{player} does not play in this match",
    # Meld against the deck
    "meld_needs_trump": "{side}: meld from cards needs a trump",
    "impossible_sets.hand": "{side}: {sets} × {combination} in one hand, but a {deck} allows at most {limit}",
    "impossible_sets.deal": "{sets} × {combination} in the deal, but a {deck} allows at most {limit}",
    "trump_kings_short.hand": "{side}: runs and royal marriages in one hand need {kings} trump kings, "
                              "but a {deck} has {copies}",
    "trump_kings_short.deal": "runs and royal marriages in the deal need {kings} trump kings, "
                              "but a {deck} has {copies}",
    "hands_beyond_deck": "the hands hold {held} {card} but a {deck} has {copies}",
    "melds_beyond_deck": "the melds of the deal need at least {needed} {card} but a {deck} has {copies}",
    # Tricks
    "counters_beyond_deck": "{side}: {counters} counters but a {deck} has {held}",
    "counters_on_classic": "{side}: counters cannot be priced on the classic scale; enter the cards taken by rank",
    "rank_beyond_deck": "{side}: {taken} {rank}s taken but a {deck} has {held}",
    "tricks_without_trick": "{side} took no trick but has trick points or the last trick",
    "tricks_in_thrown_in": "{side} has tricks, but a thrown-in deal is not played",
    "rank_total": "the sides took {taken} {rank}s together but a {deck} has {held}",
    "counters_total": "the sides took {counters} counters together but a {deck} has {held}",
    "last_trick_count": "{sides} sides took the last trick",
    "last_trick_missing": "no side took the last trick",
    "trick_total": "trick points add up to {taken}, but a {deck} holds {holds} on the {scale} scale "
                   "(without the last trick)",
}


WORDS: Final[Mapping[str, str]] = {
    # How a deal is told in a few words (store/describe.py, and the phone)
    "deal.none": "no deal",
    "deal.passed": "all passed",
    "deal.bid": "{side} bid {bid}",
    "deal.thrown_in": "{bid}, thrown in",
    # A deal's own pages (templates/deals/), which a phone with no network draws from the new deal form
    "deal_page.title": "Deal {n}",
    "deal_page.correct": "Correct deal {n}",
    "deal_page.delete": "Delete deal {n}?",
    "deal_page.delete_button": "Delete deal {n}",
    "deal_page.delete_this": "Delete this deal",
    "deal_page.after_delete": "Later deals move up one place. The score sheet is worked out again without this deal.",
    "deal_page.keep": "Keep it",
    "deal_page.missing": "This phone has no deal {n} of this match.",
    # How the phone names a change it keeps until it is sent (static/js/offline/view.js), {n} a deal's number
    "change.new": "New deal",
    "change.new_numbered": "New deal {n}",
    "change.edit": "Deal {n} corrected",
    "change.delete": "Deal {n} deleted",
    "change.throw_in": "Deal {n} thrown in",
    "change.rules": "House rules changed",
    "change.meld_prices": "Meld prices changed",
    "change.rescale": "Rescaled {n}",
    "change.undo": "A rules change undone",
    "change.other": "A change",
    "change.thrown_in": "Thrown in",
    "change.sheet": "Score sheet",
    # What the phone says of the changes it keeps (static/js/offline/view.js): their state and the choices it offers
    "outbox.not_sent_yet": "Not sent yet",
    "outbox.not_sent_yet.unchecked": "Not sent yet · checked when sent",
    "outbox.check_these": "Check these deals",
    "outbox.status.offline": "No connection. Kept on this phone and sent once it is back.",
    "outbox.status.sending": "Kept on this phone; sending…",
    "outbox.status.choose": "Nothing more is sent until you choose below.",
    "outbox.kept": "{n} changes kept on this phone, not sent yet.",
    "outbox.kept.one": "1 change kept on this phone, not sent yet.",
    "outbox.see_them": "See them on the score sheet",
    "outbox.totals_unknown": "New totals once sent: this phone does not work out a rescale or an undo.",
    "outbox.with_them": "With them:",
    "outbox.winner": "{name} win",
    "outbox.change": "Change",
    "outbox.discard": "Discard",
    "outbox.refused": "Not accepted: {message}",
    "outbox.refused.fix": "Fix it",
    "outbox.editing": "Being changed: not sent until it is saved again.",
    "outbox.editing.go_on": "Go on changing",
    "outbox.editing.send_as_it_was": "Send it as it was",
    "outbox.conflict": "Deal {n} was changed on another phone. Choose which to keep.",
    "outbox.conflict.theirs": "Theirs (now on the sheet)",
    "outbox.conflict.yours": "Yours (not sent)",
    "outbox.conflict.deleted": "Deleted",
    "outbox.conflict.delete_it": "Delete it",
    "outbox.conflict.keep_theirs": "Keep theirs",
    "outbox.conflict.use_mine": "Use mine",
    "outbox.conflict.delete_anyway": "Delete it anyway",
    "outbox.duplicate": "Deal {n} may be a duplicate",
    "outbox.duplicate.same_facts": "It has the same facts as deal {of}, added on another phone meanwhile.",
    "outbox.duplicate.keep_both": "Keep both",
    "outbox.duplicate.delete_mine": "Delete mine (deal {n})",
    "outbox.presets_offline": "Presets need a connection. Type the prices in, or try again once online.",
    # What the deal entry panel over the score sheet says while it saves (static/js/entry/panel.js)
    "entry.close": "Close",
    "entry.saving": "Saving…",
    "entry.saving.slow": "Saving… not sent yet: waiting for the server's answer.",
    "entry.saved": "Saved",
    "entry.keeping": "Not sent yet: keeping it on this phone…",
    "entry.kept": "{name}: not sent yet. It is kept on this phone and sent when the network is back.",
    "entry.not_kept": "No connection: nothing was sent. Keep this open and save again once online.",
    "entry.not_saved": "Not saved: {reason}",
    "entry.not_saved.status": "Not saved: the server answered {status}",
    # The live part of the score sheet (templates/matches/_sheet_live.html), which a phone draws again over the
    # changes it keeps (static/js/offline/sheet.js)
    "sheet.playing_to": "Playing to {target} · {deals} deals",
    "sheet.playing_to.one": "Playing to {target} · 1 deal",
    "sheet.won": "{name} won at deal {deal}",
    "sheet.to_go": "{points} to go",
    "sheet.reached": "reached {target}",
    "sheet.add": "+ Add deal {n}",
    "sheet.add_after_end": "Add deal {n} after the end (it will not count)",
    # What the phone says of a sheet drawn over changes it has not sent yet (static/js/offline/sheet.js)
    "sheet.pending": "with {n} changes not sent yet",
    "sheet.pending.one": "with 1 change not sent yet",
    "sheet.pending_totals": "Totals {pending}: kept on this phone and sent once the network is back.",
    "sheet.pending_chart": "The chart {pending}.",
    "sheet.pending_winner": "Not sent yet: the server confirms it once the deals are sent.",
    # What a deal being entered would score, line by line (sheet/deal_preview.py; with no network the phone words
    # the twin's numbers with them: static/js/offline/preview.js). {side} stands for one player or for several.
    "preview.waiting": "The deal's score shows here as you fill it in.",
    "preview.passed": "All passed: nobody scores.",
    "preview.after_end": "Played after the match was decided: it does not count.",
    "preview.made": "{side} make it",
    "preview.made.one": "{side} makes it",
    "preview.set": "{side} are set",
    "preview.set.one": "{side} is set",
    "preview.thrown_in": "{side} throw in",
    "preview.thrown_in.one": "{side} throws in",
    "preview.score": "{head}: {score}",
    "preview.total": "{line} → {total}",
    "preview.lost": "{line} · meld {meld} lost: {reason}",
    "preview.lost.no_trick": "no trick",
    "preview.lost.no_trick_points": "no trick points",
    "preview.lost.below_min_meld": "below the minimum meld",
}
"""Words that are no problem's, in templates as the messages are (the pages take them as ``say``); apart, so
that a script that tells no problem carries none of the messages."""

MELD_WORDS: Final[Mapping[str, str]] = {
    # The meld calculator's count (templates/meld/calculator.html, static/meld.js)
    "calculator.each_trump": "Each trump, best first",
    "calculator.off_table": "not on this table",
    "calculator.use": "Use in deal ({suit} trump)",
    "calculator.taken_out": "{cards} taken out: a {deck} deck has {copies} of each",
    "calculator.taken_out.no_nines": "{cards} taken out: a {deck} deck has {copies} of each, no nines",
    # The card faces of a deal form's meld box (templates/deals/form.html, static/faces_dialog.js)
    "faces.all_trumps": "All four",
    "faces.calculator": "Meld calculator",
    "faces.by_sets": "Count by sets instead",
    "faces.tap_cards": "tap the hand's cards",
    "faces.face": "{card}, {count} in hand",
    "faces.remove_one": "Remove one {card}",
    "faces.title": "{hand} by cards",
    "faces.kept": "{hand} by cards: {melds}. Type a number or count sets to replace them.",
}
"""Words of the meld pages that their scripts also draw: apart, so that those scripts carry no other."""

PAGE_WORDS: Final[Mapping[str, str]] = {
    # A link's Share button, which copies the link where the phone has no share sheet (templates/_share.html)
    "share.shared": "Shared",
    "share.copied": "Copied",
    "share.not_copied": "Could not copy: press on the link above",
    # The line under a live sheet or an event's live page while the phone follows it ({time}: a clock time)
    "live.up_to_date": "Live: up to date at {time}",
    "live.no_connection": "No connection since {time}: the sheet may be out of date. It catches up by itself.",
    "live.gone": "This match is no longer on the server.",
    # A club event's round: its countdown ({time}: minutes and seconds) and a player's seat, chosen on their phone
    # ({place}: the round and table; {partners}, {opponents}: names, two of them joined as {first} and {second})
    "countdown.left": "{time} left",
    "countdown.time_up": "Time: finish the deal in play",
    "event.i_am": "I am:",
    "event.seat": "{place}, with {partners}, against {opponents}.",
    "event.seat.alone": "{place}, against {opponents}.",
    "event.and": "{first} and {second}",
    # The deal form with no network and no outbox to turn to
    "deal_form.no_preview": "No connection: the score shows once the deal is saved.",
    "deal_form.not_sent": "No connection: nothing was sent. Keep this page open and save again once online.",
    "deal_form.count_by_cards": "Count by cards",
}
"""Words of the page scripts that load no declarations (static/phone.js, app.js, meld_in_deal.js): the server
draws them into the page, in data attributes of the element the script works on (``unfilled``), and the script
reads them there, filling in their fields itself."""

_TEMPLATES: Final[Mapping[str, str]] = {**MESSAGES, **WORDS, **MELD_WORDS}  # PAGE_WORDS: filled in by the scripts


def say(key: str, /, **fields: object) -> str:
    """The message (or words) of ``key`` with its fields filled in."""
    return _TEMPLATES[key].format(**fields)


def unfilled(key: str, /) -> str:
    """The page words of ``key`` as declared, their fields still in braces, for a page script to fill in."""
    return PAGE_WORDS[key]


def sentence(text: str) -> str:
    """A message as a sentence, as forms and pages show one: a capital first letter and a full stop (the twin's
    ``sentence`` in static/js/rules/messages.js, held to this one by tests/vectors/messages.json)."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def problem(code: ProblemCode, path: str, variant: str = "", /, **fields: object) -> Problem:
    """A problem at ``path`` that says its code's message (or the variant's) with ``fields`` filled in."""
    return Problem(code, path, say(f"{code.value}.{variant}" if variant else code.value, **fields))
