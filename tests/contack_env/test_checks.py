"""``is_whole_number``: the first question of every check of a count a user gives; ``whole_number_text``: the same
of a count typed on a command line."""

from __future__ import annotations

import numpy as np
import pytest

from contack_env.checks import is_whole_number, whole_number_text


@pytest.mark.parametrize("value", [0, 3, -2, 2**70, np.int64(5), np.uint8(1), np.int32(-1)])
def test_integers_python_or_numpy_are_whole_numbers(value):
    assert is_whole_number(value)


@pytest.mark.parametrize("value", [True, False, np.True_, 2.0, 2.5, np.float64(3.0), "3", None, [3], (3,), 1j])
def test_booleans_floats_and_other_types_are_not(value):
    assert not is_whole_number(value)


def test_a_boolean_is_refused_where_a_count_is_asked():
    # True == 1 in Python: without the check a game would be dealt with "True" hands.
    from contack_env.contack.multiplayer import new_game

    with pytest.raises(ValueError, match="1 to 100 hands"):
        new_game(2, True)
    assert new_game(2, np.int64(1)).num_hands == 1


@pytest.mark.parametrize("text, value", [("0", 0), ("42", 42), ("-3", -3), ("+7", 7), (" 12 ", 12), ("1e3", 1000),
                                         ("2.0e6", 2_000_000), ("12345678901234567890123", 12345678901234567890123),
                                         # as written, not through a float (which gives ...992 and ...808)
                                         ("9007199254740993.0", 9007199254740993),
                                         ("9.223372036854775807e18", 2**63 - 1), ("1e308", 10**308)])
def test_a_count_typed_on_a_command_line_reads_as_its_whole_number(text, value):
    # long digits are read exactly (through a float, 12345678901234567890123 would come back rounded)
    assert whole_number_text(text) == value and type(whole_number_text(text)) is int


@pytest.mark.parametrize("text", ["2.5", "1e-3", "1e400", "inf", "nan", "x", "", "1,000", "0x10", "²"])
def test_a_count_that_is_not_whole_is_refused_never_cut_down(text):
    with pytest.raises(ValueError):
        whole_number_text(text)
