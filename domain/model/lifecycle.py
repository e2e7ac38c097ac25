"""decide / evolve for the shared lifecycle, composed with the game's ruleset.

`decide` is pure: randomness comes from the committed server seed (domain/model/fairness.py), and
salts, tokens and timestamps are added by the service when it appends.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable, Sequence
from typing import Any

from domain import dice
from domain.dice import bcdice
from domain.dice.bcdice import DEFAULT_SYSTEM, Evaluation, split_command
from domain.model.audience import GM, HOST, seat_actor, seat_number
from domain.model.canonical import sha256_hex
from domain.model.commands import (
    AddTab,
    Amend,
    Command,
    Declare,
    End,
    MakeRuling,
    Note,
    Reveal,
    RevokeSessions,
    Roll,
    Say,
    Spoken,
    Start,
)
from domain.model.drawing import draw_dice, draw_roll, draw_shuffle
from domain.model.draws import DiceDraw, ShuffleDraw, draw_numbers
from domain.model.errors import Forbidden, KirokuError, NotFound, RuleViolation, Unauthorized
from domain.model.game import GAME_STATE_VERSION, GameState, SeatState, SecretRecord
from domain.model.lifecycle_events import (
    Amended,
    CredentialsRotated,
    Declared,
    DiceRolled,
    GameCreated,
    GameEnded,
    GameOptions,
    GameStarted,
    InviteIssued,
    NoteBody,
    NoteWritten,
    RecoveryCodeUsed,
    Revealed,
    RollRecord,
    RulingMade,
    Said,
    SeatInfo,
    SeatJoined,
    ServerSeed,
    SessionOpened,
    SessionsRevoked,
    TabAdded,
)
from domain.model.logline import actor_name
from domain.model.messages import N_, Term
from domain.model.records import Draft, Recorded, ServerData
from domain.model.table import Dice, Table
from domain.rulesets import ruleset_for

MAX_SEATS = 16


# ---------------------------------------------------------------------------------- creation


def create(
    *,
    ruleset: str,
    title: str,
    seat_names: list[str],
    options: GameOptions,
    ruleset_options: dict[str, Any],
    server_seed: str,
    token_hash: str,
    invite_hashes: list[str],
    referee: str | None = None,
    host_seat: int | None = None,
    system: str | None = None,
    bcdice: str | None = None,
    recovery_hash: str | None = None,
) -> Draft:
    """The GameCreated of a new game; the creator's token (`token_hash`) is the GM's, or in a
    game without a referee the host's (`host_seat`: the seat the host also sits at, which then
    gets no invite). `invite_hashes` has one invite per other seat, in seat order. `system`
    and `bcdice` are the BCDice game system and version its chat rolls are evaluated with (the
    application layer checked them with BCDice). `recovery_hash` is the creator's recovery
    code's (`recover`)."""
    rules = ruleset_for(ruleset)
    rules.options(ruleset_options)  # refuse bad options before anything is stored
    if not 1 <= len(seat_names) <= MAX_SEATS:
        raise KirokuError("bad_seats", "A game has 1 to {max} seats.", params={"max": MAX_SEATS})
    rules.check_seats(len(seat_names))
    host = creator(rules.id, referee, host_seat, len(seat_names))
    open_seats = [s for s in range(1, len(seat_names) + 1) if s != host_seat]
    assert len(invite_hashes) == len(open_seats), "one invite per seat the host does not take"
    event = GameCreated(
        ruleset=rules.id,
        ruleset_version=rules.version,
        title=title,
        seats=tuple(SeatInfo(seat=i, name=name) for i, name in enumerate(seat_names, 1)),
        options=options,
        ruleset_options=ruleset_options,
        server_seed_hash=sha256_hex(bytes.fromhex(server_seed)),
        host=host,
        system=system,
        bcdice=bcdice,
        secret=ServerSeed(server_seed=server_seed),
    )
    server = ServerData(
        credentials={token_hash: host or GM},
        invites=dict(zip(invite_hashes, open_seats, strict=True)),
        recovery=recovery_hash,
    )
    return Draft(event, audience=(), server=server)


def creator(ruleset: str, referee: str | None, host_seat: int | None, seats: int) -> str | None:
    """The host's actor in a game without a referee (None: a GM-run game). `referee` is "gm"
    or "host" (None: the ruleset's default); a host may also sit at `host_seat`."""
    rules = ruleset_for(ruleset)
    chosen = referee or rules.default_referee
    if chosen not in ("gm", "host"):
        raise KirokuError(
            "bad_referee", "referee is gm or host, not {chosen}.", params={"chosen": repr(chosen)}
        )
    if chosen == "host" and not rules.hosted:
        raise KirokuError(
            "host_not_supported",
            "A {ruleset} game needs a GM who sees every secret; create it with referee gm.",
            params={"ruleset": rules.id},
        )
    if chosen == "gm":
        if host_seat is not None:
            raise KirokuError("host_seat_needs_host", "Only a host (referee host) takes a seat.")
        return None
    if host_seat is None:
        return HOST
    if not 1 <= host_seat <= seats:
        raise KirokuError(
            "unknown_seat", "There is no seat {seat} in this game.", params={"seat": host_seat}
        )
    return seat_actor(host_seat)


def join(state: GameState, invite_hash: str, token_hash: str, client_seed: str | None) -> Draft:
    seat = state.invites.get(invite_hash)
    if seat is None:
        raise Forbidden("invalid_invite", "This invite is not valid for this game (or was used).")
    if state.status == "ended":
        raise RuleViolation("game_ended", "The game has ended.")
    info = state.seats[seat - 1]
    event = SeatJoined(seat=seat, name=info.name, client_seed=client_seed)
    return Draft(event, server=ServerData(credentials={token_hash: info.actor}))


def open_session(state: GameState, actor: str, session_hash: str) -> Draft:
    """A browser session for `actor`, who has already shown its token."""
    return Draft(SessionOpened(), server=ServerData(sessions={session_hash: actor}))


def issue_invite(state: GameState, actor: str, seat: int, invite_hash: str) -> Draft:
    """GM: a fresh invite link for a seat (a lost link, a new device); it joins as before.

    In a game without a referee a link to a seat that has joined would hand its secrets to
    whoever holds it: the host issues links only for seats nobody has taken, and a seat that
    has joined asks for its own (a second device)."""
    taken = N_(
        "Seat {seat} has joined: in a game without a referee only that seat can ask for "
        "a new link to it (the host would otherwise see its secrets)."
    )
    _may_link(state, actor, seat, "issue invites", taken, own_anywhere=False)
    return Draft(InviteIssued(seat=seat), server=ServerData(invites={invite_hash: seat}))


def rotate_credentials(state: GameState, actor: str, seat: int, invite_hash: str) -> Draft:
    """Replace a seat's credentials: every bearer token and browser session of the seat and
    its unused invites stop working, and a new invite (`invite_hash`) joins it again.

    The GM rotates any seat; a seat rotates its own (its link leaked). In a game without a
    referee the host may rotate only seats nobody has joined: the new link would otherwise
    let it read a player's secrets (as for `issue_invite`)."""
    taken = N_(
        "Seat {seat} has joined: in a game without a referee only that seat can replace "
        "its own credentials (the host would otherwise see its secrets)."
    )
    _may_link(state, actor, seat, "replace a seat's credentials", taken, own_anywhere=True)
    return Draft(CredentialsRotated(seat=seat), server=ServerData(invites={invite_hash: seat}))


def _may_link(
    state: GameState, actor: str, seat: int, what: str, taken: str, *, own_anywhere: bool
) -> None:
    """Refuse a new link to `seat` unless the referee asks (`what` it does), or the seat itself
    (in any game when `own_anywhere`, else only in one without a referee); a seat that has
    joined a game without a referee only for itself (`taken`); none once the game has ended."""
    found = state.seat(seat)
    if found is None:  # the seat is named in the path: a missing resource
        raise NotFound(
            "unknown_seat", "There is no seat {seat} in this game.", params={"seat": seat}
        )
    own = actor == found.actor and (own_anywhere or state.host is not None)
    if not own:
        _require_referee(state, actor, what)
    if state.host is not None and found.joined and not own:
        raise Forbidden("seat_taken", taken, params={"seat": seat})
    _require_not_ended(state)


def recover(state: GameState, code_hash: str, token_hash: str, next_code_hash: str) -> Draft:
    """The creator (GM or host) gets its seat back with its recovery code, once: its other
    tokens and browser sessions stop working (as a seat's do in `rotate_credentials`), the new
    token (`token_hash`) signs it in, and the next recovery code (`next_code_hash`) replaces
    the used one. A game ended keeps its record: the seat is recovered there too (to read it)."""
    if state.recovery is None or not hmac.compare_digest(state.recovery, code_hash):
        raise Unauthorized(
            "invalid_recovery_code",
            "This recovery code is not valid for this game (or was already used).",
        )
    actor = state.host or GM
    server = ServerData(credentials={token_hash: actor}, recovery=next_code_hash)
    return Draft(RecoveryCodeUsed(), server=server)


# ---------------------------------------------------------------------------------- decide


def _require_referee(state: GameState, actor: str, what: str) -> None:
    """The GM (gm_only), or in a game without a referee the host (host_only)."""
    if actor != state.referee:
        code = "gm_only" if state.host is None else "host_only"
        raise Forbidden(
            code,
            "Only the {referee} can {what}.",
            params={"referee": state.referee_name(), "what": Term(what)},
        )


def _no_gm(state: GameState, what: str) -> None:
    """A game without a referee has nobody to seal a secret to in the GM's place."""
    if state.host is not None:
        raise KirokuError(
            "no_gm",
            "This game has no GM (its host sees no secrets): {what}",
            kind="conflict",
            params={"what": Term(what)},
        )


def _require_playing(state: GameState) -> None:
    if state.status == "setup":
        raise RuleViolation("game_not_started", "The game has not started yet.")
    if state.status == "ended":
        raise RuleViolation("game_ended", "The game has ended.")


def _require_not_ended(state: GameState) -> None:
    if state.status == "ended":
        raise RuleViolation("game_ended", "The game has ended.")


def _require_known_seq(state: GameState, seq: int) -> None:
    if seq > state.version:
        raise KirokuError(
            "unknown_seq", "There is no event {seq} in this game yet.", params={"seq": seq}
        )


def roll_record(state: GameState, command: Roll, draw_number: int) -> tuple[RollRecord, bool]:
    """Evaluate a roll with manual faces or a fair draw; returns the record and its secrecy."""
    # The ruleset's own dice words are read in its games only (Ninja Slayer's NJ4[N] …).
    expression = ruleset_for(state.ruleset).parse_dice(command.expression)
    policy = state.options.dice_policy
    if command.faces is not None:
        if policy == "server":
            raise RuleViolation("manual_dice_not_allowed", "This game uses server dice only.")
        result = expression.evaluate(command.faces)
        record = RollRecord(
            expression=expression.text,
            comment=expression.comment,
            result=_json(result),
            manual=True,
        )
    else:
        if policy == "manual":
            raise RuleViolation(
                "server_dice_not_allowed", "This game uses physical dice: enter the faces."
            )
        draw, result = draw_roll(state, expression, number=draw_number, entropy=command.entropy)
        record = RollRecord(
            expression=expression.text, comment=expression.comment, result=_json(result), draw=draw
        )
    return record, command.secret or expression.secret


def bcdice_record(
    state: GameState, command: Roll, evaluation: Evaluation | None, draw_number: int
) -> tuple[RollRecord, bool]:
    """A chat roll as BCDice answered it (the application layer asked BCDice, with the faces of
    draw `draw_number` of this game's stream, or with the manual faces); returns the record
    and its secrecy. The faces are checked here against the stream: BCDice chose how many
    dice of which sides to roll, never what they show."""
    if evaluation is None or evaluation.result is None:
        raise RuleViolation(
            "dice_unsupported",
            "{system} does not know this dice command.",
            params={"system": state.system},
        )
    result = evaluation.result
    typed, comment = split_command(command.expression)
    if evaluation.system != state.system or evaluation.command != typed:
        raise KirokuError("bcdice_mismatch", "The dice engine answered another command.")
    policy = state.options.dice_policy
    record = RollRecord(
        expression=typed,
        comment=comment,
        system=evaluation.system,
        bcdice=evaluation.version,
        result=bcdice.result_json(result),
    )
    secret = command.secret or result.secret
    if command.faces is not None:
        if policy == "server":
            raise RuleViolation("manual_dice_not_allowed", "This game uses server dice only.")
        if list(result.faces) != bcdice.as_drawn(list(command.faces), result.sides):
            raise KirokuError("bad_faces", "The faces entered are not the faces BCDice used.")
        return record.model_copy(update={"manual": True}), secret
    if policy == "manual":
        raise RuleViolation(
            "server_dice_not_allowed", "This game uses physical dice: enter the faces."
        )
    draw = draw_dice(state, bcdice.runs(result.sides), number=draw_number, entropy=command.entropy)
    if draw.faces != result.faces:
        raise KirokuError(
            "bcdice_draws", "The dice engine's faces do not follow from this game's seed."
        )
    return record.model_copy(update={"draw": draw}), secret


def _json(result: dice.RollResult) -> dict[str, Any]:
    return result.model_dump(mode="json")


def _voice(state: GameState, command: Spoken) -> dict[str, Any]:
    """The chat metadata of a command, its tab checked against the game's tabs."""
    if command.tab is not None and command.tab not in state.tabs:
        tabs = "、".join(state.tabs)
        raise KirokuError(
            "unknown_tab",
            "There is no tab {tab} here (tabs: {tabs}).",
            params={"tab": f"「{command.tab}」", "tabs": tabs},
        )
    return {"speaker": command.speaker, "color": command.color, "tab": command.tab}


def _roll(
    state: GameState,
    command: Roll,
    actor: str,
    to: Sequence[str] = (),
    evaluation: Evaluation | None = None,
) -> list[Draft]:
    """An open roll, or one sealed to: those named in `to` and the roller (a whispered roll),
    the GM alone (blind: the roller sees that it rolled), or the roller (secret, or `S`).
    BCDice's `evaluation` of the command is the result (bcdice_record)."""
    _require_playing(state)
    voice = _voice(state, command)
    record, secret = bcdice_record(state, command, evaluation, state.draws + 1)
    if to:
        audience: tuple[str, ...] = _addressed(state, actor, to)
    elif command.blind:
        _no_gm(state, "nobody could read a blind roll. Roll secretly (secret, or S) instead.")
        audience = (GM,)
    elif secret:
        audience = (actor,)
    else:
        return [Draft(DiceRolled(roll=record, **voice))]
    return [Draft(DiceRolled(secret=record, **voice), audience=audience)]


def chat_hint(text: str) -> str | None:
    """The command routes' `hint` for a line sent as chat. BCDice decides what is a roll now:
    a line it does not know is chat, with no hint, as in ココフォリア. Always None; kept for
    the routes' response field until they drop it."""
    return None


def _say(
    state: GameState, command: Say, actor: str, evaluation: Evaluation | None = None
) -> list[Draft]:
    """A chat line: rolled when BCDice answered it (`evaluation` has a result, as in
    ココフォリア), else a message."""
    _require_not_ended(state)
    voice = _voice(state, command)
    if evaluation is not None and evaluation.result is not None:
        roll = Roll(
            expression=command.text,
            secret=command.secret,
            blind=command.blind,
            entropy=command.entropy,
            **voice,
        )
        return _roll(state, roll, actor, to=command.to, evaluation=evaluation)
    if command.to:
        audience = _addressed(state, actor, command.to)
        return [Draft(Said(secret=NoteBody(text=command.text), **voice), audience=audience)]
    return [Draft(Said(text=command.text, **voice))]


def _addressed(state: GameState, actor: str, to: Sequence[str]) -> tuple[str, ...]:
    """The audience of a sealed line: its author and those named (each a seat here, the GM,
    or in a game without a referee the host: its seat, if it sits at one)."""
    named: list[str] = []
    for audience in to:
        number = seat_number(audience)
        if number is not None and state.seat(number) is None:
            raise KirokuError(
                "unknown_seat", "There is no seat {seat} in this game.", params={"seat": number}
            )
        if audience == GM:
            _no_gm(state, "address the host (host) or seats (seat:N).")
        if audience == HOST:
            if state.host is None:
                raise KirokuError("no_host", "This game has a GM, not a host: address gm.")
            audience = state.host
        named.append(audience)
    return tuple(dict.fromkeys((actor, *named)))


def _note(state: GameState, command: Note, actor: str) -> list[Draft]:
    _require_not_ended(state)
    audience = _addressed(state, actor, command.to)
    return [Draft(NoteWritten(secret=NoteBody(text=command.text)), audience=audience)]


def _add_tab(state: GameState, command: AddTab, actor: str) -> list[Draft]:
    _require_referee(state, actor, "add a tab")
    _require_not_ended(state)
    if command.name in state.tabs:
        raise KirokuError(
            "tab_exists", "There is already a tab {tab}.", params={"tab": f"「{command.name}」"}
        )
    return [Draft(TabAdded(name=command.name))]


def _revoke_sessions(state: GameState, command: RevokeSessions, actor: str) -> list[Draft]:
    _require_referee(state, actor, "sign out browser sessions")
    number = seat_number(command.audience)
    if number is not None and state.seat(number) is None:
        raise KirokuError(
            "unknown_seat", "There is no seat {seat} in this game.", params={"seat": number}
        )
    if command.audience not in state.sessions.values():
        raise KirokuError(
            "no_sessions",
            "{name} has no browser session to revoke.",
            params={"name": actor_name(command.audience, {s.seat: s.name for s in state.seats})},
        )
    return [Draft(SessionsRevoked(audience=command.audience))]


def _reveal(state: GameState, command: Reveal, actor: str) -> list[Draft]:
    secret = state.unrevealed.get(command.seq)
    if secret is None:
        raise RuleViolation(
            "nothing_to_reveal", "Event {seq} has no sealed secret.", params={"seq": command.seq}
        )
    if not secret.audience:
        raise Forbidden("server_secret", "The dice seed is revealed when the game ends.")
    # A blind roll's author is not in its audience: only the GM may publish what it hides.
    # A host is not a GM: it reveals only its own secrets, like every player.
    if actor != GM and not (actor == secret.author and actor in secret.audience):
        who = (
            N_("the author of a secret or the GM")
            if state.host is None
            else N_("a secret's author")
        )
        raise Forbidden("not_your_secret", "Only {who} reveals it.", params={"who": who})
    return [Draft(Revealed(of_seq=command.seq, salt=secret.salt, body=secret.body))]


def _end(state: GameState, command: End, actor: str) -> list[Draft]:
    _require_referee(state, actor, "end the game")
    _require_not_ended(state)
    return _revealing(state, [Draft(GameEnded(summary=command.summary))])


def _revealing(state: GameState, drafts: list[Draft]) -> list[Draft]:
    """`drafts`, with every secret unrevealed in `state` (the dice seed too) revealed in seq
    order right after a GameEnded: however a game ends, it ends with nothing sealed."""
    out: list[Draft] = []
    for draft in drafts:
        out.append(draft)
        if isinstance(draft.event, GameEnded):
            out += [
                Draft(Revealed(of_seq=seq, salt=secret.salt, body=secret.body))
                for seq, secret in state.unrevealed.items()  # in seq order
            ]
    return out


def _start(state: GameState, command: Start, actor: str) -> list[Draft]:
    _require_referee(state, actor, "start the game")
    if state.status != "setup":
        raise RuleViolation("already_started", "The game has already started.")
    return [Draft(GameStarted())]


def _declare(state: GameState, command: Declare, actor: str) -> list[Draft]:
    _require_playing(state)
    return [Draft(Declared(text=command.text, **_voice(state, command)))]


def _ruling(state: GameState, command: MakeRuling, actor: str) -> list[Draft]:
    _require_referee(state, actor, "make a ruling")
    _require_known_seq(state, command.concerning_seq)
    event = RulingMade(
        concerning_seq=command.concerning_seq, text=command.text, effect=command.effect
    )
    return [Draft(event)]


def _amend(state: GameState, command: Amend, actor: str) -> list[Draft]:
    _require_referee(state, actor, "amend the record")
    _require_known_seq(state, command.concerning_seq)
    event = Amended(
        concerning_seq=command.concerning_seq, reason=command.reason, correction=command.correction
    )
    return [Draft(event)]


_LIFECYCLE: dict[type[Command], Callable[[GameState, Any, str], list[Draft]]] = {
    Start: _start,
    Declare: _declare,
    Note: _note,
    AddTab: _add_tab,
    RevokeSessions: _revoke_sessions,
    MakeRuling: _ruling,
    Amend: _amend,
    Reveal: _reveal,
    End: _end,
}


def decide(
    state: GameState, command: Command, actor: str, evaluation: Evaluation | None = None
) -> list[Draft]:
    """The events of `command`; `evaluation` is BCDice's answer to a chat line or roll (the
    application layer asks BCDice before deciding: domain/adapters/bcdice_engine.py)."""
    if isinstance(command, Roll):
        return _roll(state, command, actor, evaluation=evaluation)
    if isinstance(command, Say):
        return _say(state, command, actor, evaluation)
    handler = _LIFECYCLE.get(type(command))
    if handler is not None:
        return handler(state, command, actor)
    # A ruleset that ends the game returns GameEnded (Table.end); the reveals are added here,
    # so no sealed body ever passes through a ruleset's hands.
    return _revealing(state, ruleset_for(state.ruleset).decide(table_for(state), command, actor))


# ---------------------------------------------------------------------------------- the table


def table_for(state: GameState) -> Table[Any]:
    """What a ruleset's decider reads of the game: the server seed, credentials and sealed
    bodies stay here, behind the dice and the end the table is handed."""

    def roller(
        expression: str, faces: Sequence[int] | None, entropy: str, number: int
    ) -> RollRecord:
        manual = list(faces) if faces is not None else None
        command = Roll(expression=expression, faces=manual, entropy=entropy)
        return roll_record(state, command, number)[0]

    def drawer(requests: Sequence[tuple[int, int]], number: int, entropy: str) -> DiceDraw:
        return draw_dice(state, requests, number=number, entropy=entropy)

    def shuffler(items: int, number: int, entropy: str) -> ShuffleDraw:
        return draw_shuffle(state, items, number=number, entropy=entropy)

    return Table(
        status=state.status,
        seats=state.seats,
        options=state.options,
        rules=state.rules,
        referee=state.referee_name(),
        referee_actor=state.referee,
        next_seq=state.version + 1,
        dice=Dice(roller, drawer, shuffler, first=state.draws + 1),
    )


def rules_view(state: GameState, audience: str) -> dict[str, Any]:
    """The ruleset's part of the game as `audience` may see it: the one path every output
    (GET /games/{id}, the projections, the replay) takes."""
    return ruleset_for(state.ruleset).view(state, audience)


# ---------------------------------------------------------------------------------- evolve


def initial_state(recorded: Recorded) -> GameState:
    event = recorded.event
    assert isinstance(event, GameCreated) and event.secret is not None
    rules = ruleset_for(event.ruleset)
    host_seat = seat_number(event.host) if event.host is not None else None
    state = GameState(
        game_id=recorded.envelope.game_id,
        version=0,
        head="",
        ruleset=event.ruleset,
        title=event.title,
        options=event.options,
        # a host who sits has taken its seat with the game: it has no invite to join with
        seats=tuple(
            SeatState(seat=s.seat, name=s.name, joined=s.seat == host_seat) for s in event.seats
        ),
        server_seed=event.secret.server_seed,
        server_seed_hash=event.server_seed_hash,
        host=event.host,
        system=event.system or DEFAULT_SYSTEM,
        bcdice=event.bcdice,
        rules=rules.initial_for(event),
    )
    return evolve(state, recorded)


def restore_state(data: dict[str, Any]) -> GameState:
    """A GameState from its JSON form, with the ruleset's own state model."""
    data = dict(data)
    rules = ruleset_for(data["ruleset"]).restore(data.pop("rules"))
    return GameState.model_validate(data).model_copy(update={"rules": rules})


class StaleState(ValueError):
    """A stored state folded under another schema key: drop it and fold the events again."""


_STATE_KEYS: dict[str, str] = {}


def state_key(ruleset_id: str) -> str:
    """A hash of what a stored GameState depends on: the lifecycle's state version and schema,
    the ruleset's id, version and state schema. A snapshot taken under another key would
    restore to something a full fold would not give."""
    key = _STATE_KEYS.get(ruleset_id)
    if key is None:
        schema = json.dumps(GameState.model_json_schema(), sort_keys=True)
        rules = ruleset_for(ruleset_id).schema_key()
        key = sha256_hex(f"{GAME_STATE_VERSION}\n{schema}\n{rules}")
        _STATE_KEYS[ruleset_id] = key
    return key


def snapshot_of(state: GameState) -> dict[str, Any]:
    """A state's JSON form for a snapshot, keyed by `state_key`."""
    return {"schema": state_key(state.ruleset), **state.model_dump(mode="json")}


def restore_snapshot(data: dict[str, Any]) -> GameState:
    """The state a snapshot holds; StaleState if it was taken under another key."""
    data = dict(data)
    key = data.pop("schema", None)
    if key != state_key(data["ruleset"]):
        raise StaleState(f"snapshot of schema {key!r}, not {state_key(data['ruleset'])!r}")
    return restore_state(data)


def evolve(state: GameState, recorded: Recorded) -> GameState:
    envelope, event = recorded.envelope, recorded.event
    update: dict[str, Any] = {"version": envelope.seq, "head": envelope.hash}

    if envelope.sealed is not None and recorded.salt is not None:
        secret = SecretRecord.model_construct(  # parts of a validated record: no revalidation
            audience=envelope.sealed.audience,
            author=envelope.actor,
            salt=recorded.salt,
            body=recorded.body or {},
        )
        update["unrevealed"] = state.unrevealed.set(envelope.seq, secret)

    if type(event).may_draw():
        rolled = list(draw_numbers(event))
        if rolled:
            update["draws"] = max(state.draws, *rolled)

    if recorded.server is not None:
        _evolve_server_data(state, recorded, update)

    if isinstance(event, SeatJoined):
        seats = list(state.seats)
        seats[event.seat - 1] = seats[event.seat - 1].model_copy(
            update={"joined": True, "client_seed": event.client_seed}
        )
        update["seats"] = tuple(seats)
        update["invites"] = {h: s for h, s in state.invites.items() if s != event.seat}
    elif isinstance(event, GameStarted):
        update["status"] = "started"
    elif isinstance(event, GameEnded):
        update["status"] = "ended"
    elif isinstance(event, Revealed):
        update["unrevealed"] = update.get("unrevealed", state.unrevealed).remove(event.of_seq)
    elif isinstance(event, TabAdded):
        update["tabs"] = (*state.tabs, event.name)
    elif isinstance(event, SessionsRevoked):
        update["sessions"] = {h: a for h, a in state.sessions.items() if a != event.audience}
    elif isinstance(event, CredentialsRotated):
        _evolve_rotation(state, event.seat, update)
    elif isinstance(event, RecoveryCodeUsed):
        _drop_credentials(state, state.host or GM, update)

    rules = ruleset_for(state.ruleset).evolve(state.rules, recorded)
    update["rules"] = rules
    return state.model_copy(update=update)


def _evolve_rotation(state: GameState, seat: int, update: dict[str, Any]) -> None:
    """Drop the seat's tokens, sessions and invites but the new one (in `update` already)."""
    _drop_credentials(state, seat_actor(seat), update)
    new_invites = update.get("invites", state.invites)
    fresh = {h for h in new_invites if h not in state.invites}
    update["invites"] = {h: s for h, s in new_invites.items() if s != seat or h in fresh}


def _drop_credentials(state: GameState, actor: str, update: dict[str, Any]) -> None:
    """Drop the actor's tokens and sessions but those this event brings (in `update`)."""
    for field, before in (("credentials", state.credentials), ("sessions", state.sessions)):
        after = update.get(field, before)
        update[field] = {h: a for h, a in after.items() if a != actor or h not in before}


def _evolve_server_data(state: GameState, recorded: Recorded, update: dict[str, Any]) -> None:
    server = recorded.server
    assert server is not None
    if server.credentials:
        update["credentials"] = {**state.credentials, **server.credentials}
    if server.invites:
        update["invites"] = {**state.invites, **server.invites}
    if server.sessions:
        update["sessions"] = {**state.sessions, **server.sessions}
    if server.recovery:
        update["recovery"] = server.recovery
