"""The table's forms for the NPCs a combat brings in (add_esper, add_obstacle): the rulebook's
labels and starting numbers (domain/rulesets/form_hints.py). 超人ロック's characters are dealt
from the catalog, not written: these are its only sheets typed at the table."""

from __future__ import annotations

from domain.model.messages import N_
from domain.rulesets.chojin_locke.combat.esper import AddEsper
from domain.rulesets.chojin_locke.combat.obstacles import AddObstacle
from domain.rulesets.form_hints import FormHints, declare

_BROUGHT = N_("Brought by this square's effect")

declare(
    AddEsper,
    FormHints(
        labels={
            "": N_("An esper joins the combat"),
            "name": N_("Esper's name"),
            "esp_level": N_("ESP level"),
            "endurance": N_("Endurance"),
            "shift": N_("Melee X"),
            "square": _BROUGHT,
        },
        defaults={"esp_level": 1, "endurance": 1},
    ),
)

declare(
    AddObstacle,
    FormHints(
        labels={
            "": N_("An obstacle joins the combat"),
            "name": N_("Obstacle's name"),
            "members": N_("Members' endurance"),
            "firepower": N_("Firepower"),
            "jammer": N_("ESP jammer"),
            "jammer_lv": N_("ESP jammer LV"),
            "illusion_immune": N_("Unaffected by illusions"),
            "square": _BROUGHT,
        },
        defaults={"members": [1], "firepower": 0},
    ),
)
