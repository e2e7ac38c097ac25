"""4.5's ability cards: unused planet cards flipped, the ability deck, cards drawn and used,
and a sheet's special ability named aloud; each event with its fold."""

from __future__ import annotations

from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.changes import board, player, turn, turned_face_up, without
from domain.rulesets.chojin_locke.combat.exclusive import support_used
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.setup_events import Body, DeckOrder
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import left_the_combat, named, named_all, seat_words


@CHOJIN_LOCKE.event
class PlanetCardsFlipped(Event):
    """4.5: a base player turns unused planet cards; each blank one gives an ability card."""

    seat: int
    cards: tuple[str, ...]
    gains: int


@CHOJIN_LOCKE.folds(PlanetCardsFlipped)
def _flipped(state: ChojinState, event: PlanetCardsFlipped, seq: int) -> ChojinState:
    return board(state, unused=list(state.board.unused[len(event.cards) :]))


@CHOJIN_LOCKE.says_named(PlanetCardsFlipped)
def _planet_cards_flipped_line(e: PlanetCardsFlipped, names: Names) -> Message:
    return Message(
        N_("{seat}が惑星カードをめくる: {cards} (獲得 {gains})"),
        {"seat": seat_words(e.seat, names), "cards": named_all(e.cards), "gains": e.gains},
    )


@CHOJIN_LOCKE.event
class AbilityDeckShuffled(Event):
    secret: DeckOrder | None = None


@CHOJIN_LOCKE.folds(AbilityDeckShuffled)
def _ability_deck(state: ChojinState, event: AbilityDeckShuffled, seq: int) -> ChojinState:
    if event.secret is None:
        return state
    shuffled = [event.secret.deck[i] for i in event.secret.draw.order]
    return board(state, ability_deck=shuffled)


@CHOJIN_LOCKE.says(AbilityDeckShuffled)
def _ability_deck_shuffled_line(e: AbilityDeckShuffled) -> Message:
    return Message(N_("能力カードの山を切り混ぜる"))


class AbilityBody(Body):
    card: str


@CHOJIN_LOCKE.event
class AbilityCardDrawn(Event):
    seat: int
    secret: AbilityBody | None = None


@CHOJIN_LOCKE.folds(AbilityCardDrawn)
def _ability_drawn(state: ChojinState, event: AbilityCardDrawn, seq: int) -> ChojinState:
    if event.secret is None:
        return state
    card = event.secret.card
    hand = [*state.players[event.seat].abilities, card]
    state = player(state, event.seat, abilities=hand)
    return board(state, ability_deck=without(state.board.ability_deck, card))


@CHOJIN_LOCKE.says_named(AbilityCardDrawn)
def _ability_card_drawn_line(e: AbilityCardDrawn, names: Names) -> Message:
    seat = seat_words(e.seat, names)
    if e.secret is None:
        return Message(N_("{seat}が能力カードを引く"), {"seat": seat})
    return Message(
        N_("{seat}が能力カードを引く: {card}"), {"seat": seat, "card": named(e.secret.card)}
    )


@CHOJIN_LOCKE.event
class AbilityCardUsed(Event):
    """An ability card turned face up and used (4.7). `escaped`: a [支援][逃避] one used in its
    holder's combat turn, which takes it out of the combat (3.1 l.298–300, ruling CL-096)."""

    seat: int
    card: str
    tags: tuple[str, ...]
    text: str = ""
    main: bool = False
    escaped: bool = False


@CHOJIN_LOCKE.folds(AbilityCardUsed)
def _ability_used(state: ChojinState, event: AbilityCardUsed, seq: int) -> ChojinState:
    """4.7, lines 844–846: the card is turned face up and stays with its holder (face-up cards
    are discarded when the character dies)."""
    state = turned_face_up(state, event.seat, event.card)
    fight = state.combat
    if fight is not None and fight.current == event.seat and "支援" in event.tags:
        # 5.2 l.968: a combat turn's support action; [攻撃]/[逃避] as 3.1 l.293–300 say
        return support_used(state, event.seat, event.tags, event.escaped)
    return turn(state, main="ability") if event.main else state


@CHOJIN_LOCKE.says_named(AbilityCardUsed)
def _ability_card_used_line(e: AbilityCardUsed, names: Names) -> Message:
    said: dict[str, object] = {
        "seat": seat_words(e.seat, names),
        "card": named(e.card),
        "text": named(e.text) if e.text else "",
        "left": left_the_combat() if e.escaped else "",
    }
    if e.tags:
        return Message(
            N_("{seat}が能力カード「{card}」を使う [{tags}]: {text}{left}"),
            {**said, "tags": named_all(e.tags)},
        )
    return Message(N_("{seat}が能力カード「{card}」を使う: {text}{left}"), said)


class UnnamedAbility(Body):
    """The ability used without naming it, sealed to its user."""

    ability: str
    tags: tuple[str, ...]


@CHOJIN_LOCKE.event
class AbilityUsed(Event):
    """A special ability used. A named one (3.1: 「基本的に能力を使用する際には能力名を宣言する
    必要があります。」) is public; one used without its name (lines 261–262, 322–323, 358, 373)
    shows only that an ability (or a proxy) was used, the name sealed to its user. `escaped`:
    a named [支援][逃避] one used in its user's combat turn, which takes it out of the combat
    (3.1 l.298–300, ruling CL-096)."""

    seat: int
    ability: str | None = None  # None: used without naming it (see `secret`)
    tags: tuple[str, ...] = ()
    main: bool = False
    proxy: bool = False  # 3.1, line 373: 「代理を使用することだけを宣言します。」
    secret: UnnamedAbility | None = None
    escaped: bool = False


@CHOJIN_LOCKE.folds(AbilityUsed)
def _ability_used_from_sheet(state: ChojinState, event: AbilityUsed, seq: int) -> ChojinState:
    used = event.secret if event.secret is not None else event
    after, fight = state.aftermath, state.combat
    if after is not None and fight is None and after.queue[:1] == [event.seat]:
        # 5.7: a leaver's 支援フェイズ (combat/leaving.py) counts its own [支援] uses
        if used.ability is None:
            return state
        changed = after.model_copy(update={"supported": [*after.supported, used.ability]})
        return state.model_copy(update={"aftermath": changed})
    if fight is not None and fight.current == event.seat and "支援" in used.tags:
        # 5.2: a combat turn's support phase counts its own [支援] uses
        if used.ability is None:
            return state
        fought = fight.model_copy(update={"supported": [*fight.supported, used.ability]})
        state = state.model_copy(update={"combat": fought})
        # 3.1 l.293–300: by its public tags only (an unnamed one's stay sealed; ruling CL-096)
        return support_used(state, event.seat, event.tags, event.escaped)
    if state.turn is None:
        return state
    if event.main:
        return turn(state, main="ability")
    if "支援" in used.tags and used.ability is not None:
        return turn(state, supported=[*state.turn.supported, used.ability])
    return state


@CHOJIN_LOCKE.says_named(AbilityUsed)
def _ability_used_line(e: AbilityUsed, names: Names) -> Message:
    """A named ability reads with its name; one used without it (3.1, lines 261–262, 373) as
    the table heard it — 「能力を使う」 or 「代理を使う」 — plus, for its user, the sealed name."""
    seat = seat_words(e.seat, names)
    if e.ability is not None:
        said: dict[str, object] = {
            "seat": seat,
            "ability": e.ability,
            "left": left_the_combat() if e.escaped else "",
        }
        if e.tags:
            return Message(
                N_("{seat}が能力「{ability}」を使う [{tags}]{left}"),
                {**said, "tags": named_all(e.tags)},
            )
        return Message(N_("{seat}が能力「{ability}」を使う{left}"), said)
    if e.secret is None:
        if e.proxy:
            return Message(N_("{seat}が代理を使う"), {"seat": seat})
        return Message(N_("{seat}が能力を使う (名前は伏せて)"), {"seat": seat})
    said = {"seat": seat, "ability": e.secret.ability}
    if e.proxy:
        return Message(N_("{seat}が代理を使う — 秘密: 「{ability}」"), said)
    return Message(N_("{seat}が能力を使う (名前は伏せて) — 秘密: 「{ability}」"), said)
