"""Deal entry and correction forms (phone first: big radio buttons; they work without JS).

- `common`: the buttons' choices, the sides' names, and `PlainErrors`, the base of every page
  form (errors in plain words; only the controls the game and the house rules allow).
- `four_player`: rubber and Chicago (`DealEntryForm`, `DealCorrectionForm`).
- `two_player_fields`: each two-player game's fields (`TwoPlayerFields`, named by the registry).
- `dispute`: why a deal is disputed (`DisputeForm`).
- `two_player`: the two-player forms (`TwoPlayerDealForm`, `TwoPlayerCorrectionForm`).

This face re-exports what the views, the registry and the tests import.
"""

from .common import CHOOSE, STALE, PlainErrors, side_names
from .dispute import DisputeForm
from .four_player import (
    RESULTS,
    DealCorrectionForm,
    DealEntryForm,
    entry_initial,
    honours_choices,
    possible_results,
)
from .two_player import TwoPlayerCorrectionForm, TwoPlayerDealForm
from .two_player_fields import (
    BridgeForTwoFields,
    DrawDiscardFields,
    MiseryFields,
    TurnoverFields,
    TwoPlayerFields,
)

__all__ = [
    "CHOOSE",
    "RESULTS",
    "STALE",
    "BridgeForTwoFields",
    "DealCorrectionForm",
    "DealEntryForm",
    "DisputeForm",
    "DrawDiscardFields",
    "MiseryFields",
    "PlainErrors",
    "TurnoverFields",
    "TwoPlayerCorrectionForm",
    "TwoPlayerDealForm",
    "TwoPlayerFields",
    "entry_initial",
    "honours_choices",
    "possible_results",
    "side_names",
]
