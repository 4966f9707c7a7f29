"""Fair tables in real browsers: two phones (separate contexts) play a shared Perudo table to
the end over WebRTC (invite links, no relay), with a bot on the host's phone.

What is checked beyond the play: the table screens say what a fair table means and which
device runs the bot; and the secrecy audit on the host's side: every text the host's page
received from the guest before the guest revealed a round's secret holds nothing that fixes
the guest's dice (no secret of that round, no dice at all), so the host's browser could not
have read the guest's cup. Screenshots of the changed screens go to the test's tmp_path.
"""

import json
import random

from pyengine.core import fair
from tests.browser.test_friends_browser import (
    connected,
    host_table,
    join_by_invite,
    open_lobby,
    play,
    protocol_messages,
)


def create_fair_table(page, game="perudo"):
    """The host's setup: seat 0 on this phone, seat 1 a friend, seat 2 the game's first bot."""
    page.select_option("#friends-game", game)
    page.click("[data-testid=friends-create]")
    form = page.locator('form[data-form="setup"][data-shared="1"]')
    form.wait_for()
    assert form.locator("[data-testid=fair-line]").count() == 1  # said before the table exists
    form.locator('select[name="seat1_kind"]').select_option("remote")
    bot = form.locator('select[name="seat2_kind"] option[value^="bot:"]').first.get_attribute("value")
    form.locator('select[name="seat2_kind"]').select_option(bot)
    for seat in range(3, 6):
        form.locator(f'select[name="seat{seat}_kind"]').select_option("none")
    form.locator('input[name="seat0_name"]').fill("Ana")
    form.locator("[data-testid=start]").click()
    page.locator("[data-testid=room-code]").wait_for()


def test_two_phones_play_a_fair_perudo_table_and_the_host_never_holds_the_guests_dice(phones, site, wait_engine, tmp_path):
    rng = random.Random(23)
    host, bruno = phones(), phones()
    open_lobby(host, site.url, wait_engine)
    create_fair_table(host)
    assert host.locator("[data-testid=fair-line]").count() == 1  # the arrange screen says it too
    join_by_invite(host, bruno, 1, "Bruno", wait_engine)
    connected(host, 1)
    host.click("[data-testid=net-start]")
    for page in (host, bruno):
        page.locator("#game-area [data-testid=fair-line]").wait_for()
        page.locator('#game-area [data-testid="seat-2"] .tb-net-runs').wait_for()  # the bot's device
        page.locator("#game-area [data-testid=my-cup]").wait_for()  # each sees its own cup at once
    assert "this device" in host.locator('[data-testid="seat-2"] .tb-net-runs').inner_text()
    assert "host's device" in bruno.locator('[data-testid="seat-2"] .tb-net-runs').inner_text()
    for name, page in (("host", host), ("guest", bruno)):
        page.screenshot(path=str(tmp_path / f"fair-{name}-360.png"))
    bruno.set_viewport_size({"width": 1280, "height": 800})
    bruno.screenshot(path=str(tmp_path / "fair-guest-1280.png"))

    assert play(host, [host, bruno], rng) > 5
    bruno.locator("#game-area [data-testid=game-over]").wait_for()
    assert bruno.locator("[data-testid=fair-evidence]").count() == 0  # an honest host

    # The secrecy audit: the guest's secrets reached the host's page only in its reveals.
    table = host_table(host)
    record = table.state["fair"]
    reveals = {(e["action"]["n"], e["seat"]): e["action"]["secret"] for e in table.log if e["action"]["type"] == "reveal"}
    intents = protocol_messages(host.evaluate("window.__raw"), "intent")
    assert any(i["action"]["type"] == "commit" for i in intents)
    assert all("dice" not in json.dumps(i["action"]) for i in intents)
    for (n, seat), secret in reveals.items():
        if seat != 1:
            continue
        first = next(k for k, i in enumerate(intents) if secret in json.dumps(i))
        assert intents[first]["action"] == {"type": "reveal", "n": n, "secret": secret}
        # ... after the guest's commitment of that round, which fixed its dice unseen.
        commits = [k for k, i in enumerate(intents) if i["action"].get("type") == "commit" and i["action"]["n"] == n]
        assert commits and commits[0] < first
        share = fair.share_of(secret, record["id"], n, seat)
        assert any(i["action"].get("share") == share for i in intents[:first])
    assert any(seat == 1 for _, seat in reveals)  # at least one Dudo reached the guest's cup
    for page in (host, bruno):
        assert page.context.errors == []
