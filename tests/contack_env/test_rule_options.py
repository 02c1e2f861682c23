"""``GameSpec.check_options``: each game's own rule options checked, and another game's refused unless default."""

from __future__ import annotations

import re

import pytest

from contack_env.games import GAMES, RuleOptions, get_game


@pytest.mark.parametrize("game", list(GAMES))
def test_the_defaults_are_allowed_for_every_game(game):
    get_game(game).check_options(RuleOptions())


@pytest.mark.parametrize("game, options, message", [
    ("contack", RuleOptions(hands=0), "a game has 1 to 100 hands (the rules play 3); got 0"),
    ("contack", RuleOptions(hands=True), "a game has 1 to 100 hands (the rules play 3); got True"),
    ("contack", RuleOptions(enclosed_end="sometimes"), "enclosed_end must be one of 1939, next_player, never"),
    ("contactix", RuleOptions(board_size=2), "board_size is a whole number 3..19; got 2"),
    ("contactix", RuleOptions(swap="yes"), "swap is True or False; got 'yes'"),
    ("solitaire2", RuleOptions(board_size=5), "board_size: not an option of game 'solitaire2' (its rule options: none)"),
    ("contactix", RuleOptions(hands=2, swap=True), "hands: not an option of game 'contactix'"),
])
def test_a_value_the_rules_do_not_allow_is_refused_saying_what_is(game, options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        get_game(game).check_options(options)


@pytest.mark.parametrize("game, options", [
    ("contack", RuleOptions(hands=1, enclosed_end="never")),
    ("contactix", RuleOptions(board_size=5, swap=True)),
])
def test_a_game_takes_its_own_options(game, options):
    get_game(game).check_options(options)
    state = get_game(game).new_state(0, None, options, log=False)
    assert options.rules_of(get_game(game)) == {name: getattr(state, attr) for name, attr in
                                               {"hands": "num_hands", "enclosed_end": "enclosed_end",
                                                "board_size": "size", "swap": "swap_rule"}.items()
                                               if name in get_game(game).options}
