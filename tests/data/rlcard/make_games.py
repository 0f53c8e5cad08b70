"""Make the RLCard fixtures with RLCard's own engine: ``python tests/data/rlcard/make_games.py``.

Plays games of ``rlcard.games.gin_rummy`` (1.2) with seeded random legal
moves (going out when offered, half the time) and writes each finished game
as one line by the snippet of docs/IMPORTS.md (:func:`rlcard_line`):
``games.rlcard.jsonl`` under RLCard's default settings, ``settings.rlcard.jsonl``
under the other supported settings (a lower knock, a larger dead stock, a
short move limit, the picked-up card discardable), and ``refused/`` the
settings ginlog refuses, one file a setting.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
from rlcard.games.gin_rummy.game import GinRummyGame
from rlcard.games.gin_rummy.utils import melding, utils
from rlcard.games.gin_rummy.utils.action_event import DiscardAction, GinAction, KnockAction, PickUpDiscardAction
from rlcard.games.gin_rummy.utils.settings import Setting

HERE = Path(__file__).parent


def rlcard_line(game: Any) -> str:
    """A finished RLCard GinRummyGame as one line for ``ginlog import rlcard`` (the snippet of docs/IMPORTS.md)."""
    return json.dumps({
        "settings": {s.value: getattr(game.settings, s.value) for s in Setting},
        "dealer": int(game.round.dealer_id),
        "moves": [str(m) for m in game.round.move_sheet],
        "payoffs": [float(p) for p in game.judge.scorer.get_payoffs(game)],
    })


def _deadwood(hand: list[Any]) -> int:
    clusters = melding.get_best_meld_clusters(hand=hand)
    return int(utils.get_deadwood_count(hand, clusters[0] if clusters else []))


def _greedy_discard(game: GinRummyGame, legal: list[Any]) -> Any:
    """The discard that leaves the least deadwood (RLCard's own melding counts it)."""
    hand = game.get_current_player().hand
    discards = [a for a in legal if isinstance(a, DiscardAction)]
    return min(discards, key=lambda a: _deadwood([c for c in hand if c != a.card]))


def play(seed: int, settings: dict[Any, Any] | None = None, go_out: float = 0.5) -> GinRummyGame:
    """One game of RLCard's engine: seeded moves among the legal ones (greedy discards most of the time, a
    pickup a third of the time), going out with probability ``go_out`` when offered."""
    rng = random.Random(seed)
    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    if settings:
        game.settings.change_settings(settings)
    game.init_game()
    while not game.is_over():
        legal = game.judge.get_legal_actions()
        out = [a for a in legal if isinstance(a, (GinAction, KnockAction))]
        pickup = [a for a in legal if isinstance(a, PickUpDiscardAction)]
        if out and rng.random() < go_out:
            action = rng.choice(out)
        elif any(isinstance(a, DiscardAction) for a in legal) and rng.random() < 0.8:
            action = _greedy_discard(game, legal)
        elif pickup and rng.random() < 0.33:
            action = pickup[0]
        else:
            action = rng.choice([a for a in legal if not isinstance(a, (GinAction, KnockAction))] or legal)
        game.step(action)
    return game


OTHER_SETTINGS: list[dict[Any, Any]] = [
    {Setting.going_out_deadwood_count: 5},
    {Setting.stockpile_dead_card_count: 10},
    {Setting.max_move_count: 40},
    {Setting.is_allowed_to_discard_picked_up_card: True},
    {Setting.dealer_for_round: 0},
]
REFUSED: dict[str, dict[Any, Any]] = {
    "max_drawn_card_count": {Setting.max_drawn_card_count: 20},
    "is_allowed_knock": {Setting.is_allowed_knock: False},
    "is_allowed_gin": {Setting.is_allowed_gin: False},
    "is_allowed_pick_up_discard": {Setting.is_allowed_pick_up_discard: False},
    "is_always_knock": {Setting.is_always_knock: True},
    "is_south_never_knocks": {Setting.is_south_never_knocks: True},
    "going_out_deadwood_count": {Setting.going_out_deadwood_count: 15},
}


def main(n: int = 60) -> None:
    with open(HERE / "games.rlcard.jsonl", "w") as fh:
        for seed in range(n):
            fh.write(rlcard_line(play(seed, go_out=0.5 if seed % 3 else 0.05)) + "\n")
    with open(HERE / "settings.rlcard.jsonl", "w") as fh:
        for i, settings in enumerate(OTHER_SETTINGS):
            for seed in range(4):
                fh.write(rlcard_line(play(1000 + 10 * i + seed, settings)) + "\n")
    (HERE / "refused").mkdir(exist_ok=True)
    for name, settings in REFUSED.items():
        (HERE / "refused" / f"{name}.rlcard.jsonl").write_text(rlcard_line(play(7, settings)) + "\n")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
