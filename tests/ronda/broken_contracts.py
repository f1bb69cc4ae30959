"""Deliberately wrong copies of contracted RONDA functions, with the same contracts.

The CrossHair test runs on these and must report a counterexample for each: proof that the
checks of the real functions are not vacuous. Never imported by the library.
"""

from __future__ import annotations

from copa_ref.ronda.state import Config


def add_bean_forgetting_the_bean(beans: int, supply: int, black: int, out: int,
                                 config: Config) -> tuple[int, int, int, int]:
    """Like ``copa_ref.ronda.rules.add_bean``, but a group going to the black cup goes
    without the added bean (the bean is lost).

    :pre: config.max_beans in (4, 5) and 0 <= beans <= config.max_beans
    :pre: supply >= 1 and black >= 0 and out >= 0
    :post: sum(__return__) == beans + supply + black + out
    :post: __return__[1] == supply - 1 and 0 <= __return__[0] <= config.max_beans
    :post: __return__[2] == black or (black == 0 and __return__[2] == config.max_beans + 1)
    :post: (__return__[0] == 0) == (beans == config.max_beans)
    """
    if beans == config.max_beans:
        if config.penalty_beans and black == 0:
            return 0, supply - 1, black + beans, out  # the planted bug: the bean is lost
        return 0, supply - 1, black, out + beans + 1
    return beans + 1, supply - 1, black, out


def add_bean_filling_a_full_black_cup(beans: int, supply: int, black: int, out: int,
                                      config: Config) -> tuple[int, int, int, int]:
    """Like ``copa_ref.ronda.rules.add_bean``, but a second group goes into the black cup
    although it still holds beans (RONDA-12 misread).

    :pre: config.max_beans in (4, 5) and 0 <= beans <= config.max_beans
    :pre: supply >= 1 and black >= 0 and out >= 0
    :post: sum(__return__) == beans + supply + black + out
    :post: __return__[1] == supply - 1 and 0 <= __return__[0] <= config.max_beans
    :post: __return__[2] == black or (black == 0 and __return__[2] == config.max_beans + 1)
    :post: (__return__[0] == 0) == (beans == config.max_beans)
    """
    if beans == config.max_beans:
        if config.penalty_beans:
            return 0, supply - 1, black + beans + 1, out  # the planted bug
        return 0, supply - 1, black, out + beans + 1
    return beans + 1, supply - 1, black, out


def take_penalty_from_nowhere(black: int, supply: int) -> tuple[int, int]:
    """Like ``copa_ref.ronda.rules.take_penalty``, but the black cup is not emptied by it.

    :pre: black >= 1 and supply >= 0
    :post: __return__[0] + __return__[1] == black + supply
    :post: __return__[0] == black - 1 and __return__[0] >= 0
    """
    return black, supply + 1
