"""Restoring never fails badly (issue 13, finding 4).

* Every registered game's actions, mutated (junk values, missing and extra fields), go
  through ``apply`` and ``parse_action``: the rules refuse them with a ``TabernaError``
  (``IllegalAction``), never a ``TypeError``/``KeyError``/... — a save's log is replayed
  through the same ``apply``, so such an error would escape every restore.
* 10,000 mutated saves across every registered game and the three save kinds (one device,
  host, guest) go through the worker's ``resume`` calls: each is either restored and drawn
  (a screen with text, never a blank one, never a one-device table waiting for nobody) or
  refused with a translated reason that is not an internal error.

The games come from the registry, so a game registered later is covered without a change.
"""

import json
import random
import re

import pytest

from pyengine.core.errors import TabernaError
from pyengine.core.registry import playable_games
from pyengine.i18n import LANGUAGES, catalog
from pyengine.shell.calls import Worker
from tests.seen import legal_actions_seen

GAMES = playable_games()
SAVES = 10_000
KINDS = ("local", "host", "guest")
JUNK = [None, True, False, 0, 1, -1, 3, 7, 99, 2**53, 2**70, -(2**63), 1.5, -0.0, "", "x", "left", "2", "é" * 40, "remote", "human", "bot",
        [], [0], [1, 2], ["left"], [[1]], {}, {"type": "bid"}, {"a": {"b": [1]}}]
TEXTS = ["", "x", "bid 3 4", "dudo", "calza", "direction [", "\x00", "bid -1 99", "bid 99999999999999999999 3",
         "bet 1e9", "a1-b2", "9" * 50, "left", "right", "keep 1 2 3 4 5 6 7", "[]", "{}", "play", "pass"]


# --- mutations ----------------------------------------------------------------------------------
def _paths(value) -> list:
    """Every node's path (keys and indices from the root), parents before children, in
    document order. A loop, not a recursive generator: listing every path of a save 1-3
    times per mutation was a third of the 10,000 saves' time."""
    paths = []
    stack = [((), value)]
    while stack:
        path, value = stack.pop()
        paths.append(path)
        if isinstance(value, dict):
            stack.extend(((*path, key), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend(((*path, index), value[index]) for index in range(len(value) - 1, -1, -1))
    return paths


def _junk(rng):
    return json.loads(json.dumps(rng.choice(JUNK)))


def _tweak(value, rng):
    """A near miss of ``value``: what a damaged or hand-edited save looks like."""
    if type(value) is int:
        return rng.choice([value + 1, value - 1, -value - 1, value * 1000 + 7, 2**64])
    if isinstance(value, str):
        return rng.choice([value + "x", value[:-1], value.upper(), "", value * 3])
    if isinstance(value, list) and value:
        changed = list(value)
        roll = rng.random()
        if roll < 0.3:
            changed.pop(rng.randrange(len(changed)))
        elif roll < 0.6:
            changed.append(rng.choice(changed))
        else:
            rng.shuffle(changed)
        return changed
    if isinstance(value, dict) and value:
        changed = dict(value)
        if rng.random() < 0.5:
            changed.pop(rng.choice(list(changed)))
        else:
            changed[rng.choice(["extra", *changed])] = _junk(rng)
        return changed
    return _junk(rng)


def mutate(data, rng):
    """``data`` with one to three nodes replaced, tweaked, dropped or duplicated."""
    data = json.loads(json.dumps(data))
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(data)[1:] or [()])
        if not path:
            return _junk(rng)
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        roll = rng.random()
        if roll < 0.35:
            parent[last] = _tweak(parent[last], rng)
        elif roll < 0.7:
            parent[last] = _junk(rng)
        elif roll < 0.85:
            if isinstance(parent, dict):
                del parent[last]
            else:
                parent.pop(last)
        else:  # a value from elsewhere in the save, in the wrong place
            other = rng.choice(_paths(data))
            source = data
            for step in other:
                source = source[step]
            parent[last] = json.loads(json.dumps(source))
    return data


def mutate_text(text, rng):
    """A save as text, damaged as a full disk or a bad edit would: mostly a mutated tree,
    sometimes cut short or with a byte changed."""
    roll = rng.random()
    if roll < 0.05:
        return text[: rng.randrange(len(text))]
    if roll < 0.1:
        at = rng.randrange(len(text))
        return text[:at] + rng.choice('{}[]",:0x\\') + text[at + 1:]
    return json.dumps(mutate(json.loads(text), rng))


# --- the engines' actions -------------------------------------------------------------------------
def _mutated_action(action, rng):
    if rng.random() < 0.1:
        return _junk(rng)
    return mutate(action, rng) if action else _junk(rng)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_mutated_actions_are_refused_by_the_rules(game_id):
    game = GAMES[game_id]
    rng = random.Random(f"actions-{game_id}")
    checked = 0
    for seed in range(12):
        seats = rng.randint(game.min_seats, min(game.max_seats, 6))
        state = game.new_state({}, seats, seed)
        for _ in range(150):
            if game.is_over(state):
                break
            seat = rng.choice(game.to_act(state))
            actions = game.legal_actions(state, seat)
            for _ in range(4):
                action = _mutated_action(rng.choice(actions), rng)
                try:
                    game.apply(state, seat, action)
                except TabernaError:
                    pass
                text = rng.choice(TEXTS + [json.dumps(action)])
                try:
                    game.parse_action(text)
                except (TabernaError, NotImplementedError):
                    pass
                checked += 1
            state = game.apply(state, seat, rng.choice(actions))
    assert checked > 200


def test_bozo_direction_with_a_list_way_is_illegal():
    """The finding itself: a list ``way`` raised ``TypeError`` (unhashable) out of the replay."""
    from pyengine.core.errors import IllegalAction

    game = GAMES["bozo"]
    state = game.new_state({}, 3, 1)
    seat = game.to_act(state)[0]
    direction = next((a for a in game.legal_actions(state, seat) if a["type"] == "direction"), None)
    while direction is None:
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
        seat = game.to_act(state)[0]
        direction = next((a for a in game.legal_actions(state, seat) if a["type"] == "direction"), None)
    with pytest.raises(IllegalAction):
        game.apply(state, seat, {"type": "direction", "way": ["left"]})


# --- saves of the three kinds -----------------------------------------------------------------------
def _call(worker, name, *args):
    return json.loads(getattr(worker, name)(*args))


def _moves(worker, role, rng, count):
    """Plays ``count`` moves at the worker's table: the player on screen picks a random legal
    action, bots play their own, hand-offs are taken."""
    prefix = "" if role == "local" else "net_host_"
    at = () if role == "local" else (1_000,)
    for _ in range(count):
        controller = worker.tables[role]
        table, device = controller.table if role == "local" else controller.host.table, controller.device
        status = device.status()
        if status == "bot":
            _call(worker, f"{prefix}bot_step", *at, "en")
        elif status == "handoff":
            _call(worker, f"{prefix}ui", json.dumps({"handoff": device.next_local()}), *at, "en")
        elif status == "human":
            action = rng.choice(legal_actions_seen(table, device.viewer))
            _call(worker, f"{prefix}act", json.dumps(action), *at, "en")
        else:
            return


def _fields(game, friend: bool):
    middle = game.bot_levels[len(game.bot_levels) // 2]
    fields = {"seat0_kind": "human", "seat1_kind": "remote" if friend else "human", "seed": "4242"}
    for index in range(2, max(game.min_seats, 3 if game.max_seats >= 3 else 2)):
        fields[f"seat{index}_kind"] = f"bot:{middle}"
    return fields


def base_saves(game_id) -> dict:
    """A save of each kind with a game in progress, made through the worker calls."""
    game = GAMES[game_id]
    rng = random.Random(f"saves-{game_id}")
    saves = {}
    local = Worker()
    _call(local, "start", json.dumps({"game": game_id, "fields": _fields(game, False)}), "en")
    _moves(local, "local", rng, 25)
    assert local.tables["local"].table.log
    saves["local"] = local.tables["local"].saved

    host = Worker()
    created = _call(host, "net_host_create", json.dumps({"game": game_id, "fields": _fields(game, True)}), 1_000, "en")
    guest = Worker()
    reply = _call(guest, "net_guest_join", json.dumps({"table": created["table"], "seat": 1, "name": "Bea"}), 1_000, "en")
    pending = [(None, text) for _, text in _call(guest, "net_guest_connected", 1_000, "en")["outbox"]]
    pending += [(None, text) for _, text in reply["outbox"]]
    while pending:
        peer, text = pending.pop(0)
        if peer is None:
            pending += [(p, t) for p, t in _call(host, "net_host_receive", "pa", text, 1_000, "en")["outbox"]]
        else:
            pending += [(None, t) for _, t in _call(guest, "net_guest_receive_all", json.dumps([text]), 1_000, "en")["outbox"]]
    assert guest.tables["guest"].saved, "the guest holds a seat"
    saves["guest"] = guest.tables["guest"].saved
    # The friend leaves and a bot covers the seat (its token kept), then the game starts.
    _call(host, "net_host_dropped", "pa", 1_000, "en")
    assert _call(host, "net_host_command", json.dumps({"seat": 1, "kind": "bot", "level": game.bot_levels[0]}), 1_000, "en")["ok"]
    assert _call(host, "net_host_command", '{"start":true}', 1_000, "en")["ok"]
    _moves(host, "host", rng, 25)
    assert host.tables["host"].host.table.log, "the host's save has a game in progress"
    saves["host"] = host.tables["host"].saved
    return saves


RESUME = {
    "local": lambda worker, save, lang: _call(worker, "resume", save, lang),
    "host": lambda worker, save, lang: _call(worker, "net_host_resume", save, 2_000, lang),
    "guest": lambda worker, save, lang: _call(worker, "net_guest_resume", save, 2_000, lang),
}
REDRAW = {
    "local": lambda worker, lang: _call(worker, "render", lang),
    "host": lambda worker, lang: _call(worker, "net_host_ui", "{}", 2_000, lang),
    "guest": lambda worker, lang: _call(worker, "net_guest_ui", "{}", 2_000, lang),
}


def _has_text(html) -> bool:
    return isinstance(html, str) and bool(re.sub(r"<[^>]*>|\s", "", html))


def test_unmutated_saves_restore():
    for game_id in GAMES:
        for kind, save in base_saves(game_id).items():
            reply = RESUME[kind](Worker(), save, "en")
            assert reply["ok"] and _has_text(reply["html"]), (game_id, kind, reply["message"])


def test_ten_thousand_mutated_saves_restore_or_are_refused_cleanly():
    rng = random.Random(13)
    bases = {game_id: base_saves(game_id) for game_id in GAMES}
    combos = [(game_id, kind) for game_id in GAMES for kind in KINDS]
    outcomes = {"restored": 0, "refused": 0}
    internal, blank, codes = [], [], set()
    # One worker per kind, as a tab whose player goes back to the lobby and tries another save.
    workers = {kind: Worker() for kind in KINDS}
    for number in range(SAVES):
        game_id, kind = combos[number % len(combos)]
        save = mutate_text(bases[game_id][kind], rng)
        lang = LANGUAGES[number % len(LANGUAGES)]
        worker = workers[kind] if number % 2 else Worker()
        reply = RESUME[kind](worker, save, lang)
        if reply["ok"]:
            outcomes["restored"] += 1
            redrawn = REDRAW[kind](worker, lang)
            if not (_has_text(reply["html"]) and redrawn["ok"] and _has_text(redrawn["html"])):
                blank.append((game_id, kind, save))
            if kind == "local" and reply["status"] == "wait":  # a friend who can never come
                blank.append((game_id, kind, save))
            if kind == "local" and reply["status"] == "bot":
                stepped = _call(worker, "bot_step", lang)
                if not (stepped["ok"] and _has_text(stepped["html"])):
                    blank.append((game_id, kind, save))
        else:
            outcomes["refused"] += 1
            codes.add(reply["error"]["code"])
            if reply["error"]["code"] == "internal" or not reply["message"]:
                internal.append((game_id, kind, reply["error"], save))
    print(f"\n{SAVES} mutated saves: {outcomes}")
    assert not internal, internal[:3]
    assert not blank, blank[:3]
    assert outcomes["refused"] > SAVES // 2 and outcomes["restored"] > 50
    for code in codes:  # every reason a player can be shown is translated
        assert all(f"err.{code}" in catalog(lang) for lang in LANGUAGES), code


def test_a_one_device_save_with_a_friend_seat_is_refused():
    """Found by the fuzz: such a save restored into a table waiting forever for nobody."""
    for game_id in GAMES:
        save = json.loads(base_saves(game_id)["local"])
        save["seats"][-1] = {"kind": "remote", "name": "Friend"}
        reply = RESUME["local"](Worker(), json.dumps(save), "it")
        assert not reply["ok"] and reply["error"]["code"] == "save_remote_seat", reply
        assert reply["message"] == catalog("it")["err.save_remote_seat"]
