"""カードゲーム「超人ロック」: hidden identities, declarations checked against the secret sheet.

Importing the package loads every module that declares on CHOJIN_LOCKE, then completes it.
"""

from __future__ import annotations

from domain.rulesets.chojin_locke import (  # noqa: F401  (each module declares on the ruleset)
    abilities,
    actions,
    audit,
    base,
    base_actions,
    base_events,
    card_events,
    forms,
    glance,
    host,
    party,
    party_events,
    planets,
    reference,
    setup,
    setup_events,
    silhouettes,
    support,
    turn,
    turn_events,
    view,
    vigil,
)
from domain.rulesets.chojin_locke.combat import (  # noqa: F401  (combat's own modules)
    action_events,
    activation,
    arrival,
    attack,
    before,
    before_events,
    conditions,
    counter,
    death,
    esper,
    fainting,
    flow,
    flow_events,
    illusion,
    jammer,
    joining,
    joining_events,
    leaving,
    main_ability,
    melee,
    negation,
    obstacles,
    own_jammer,
    remnant,
    round_end,
    square_npc,
    start,
    sync,
)
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE

CHOJIN_LOCKE.complete(
    order=(
        setup,
        silhouettes,
        planets,
        base,
        turn,
        actions,
        base_actions,
        party,
        abilities,
        support,
        host,
        start,
        joining,
        before,
        flow,
        round_end,
        activation,
        sync,
        attack,
        counter,
        main_ability,
        melee,
        obstacles,
        remnant,
        fainting,
        jammer,
        esper,
        death,
    )
)

__all__ = ["CHOJIN_LOCKE"]
