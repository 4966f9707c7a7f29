"""The how-to-play pages in Chromium: reached from a lobby card in the chosen language and from
the game's bar, readable with the network off, under the site's policy (the autouse fixture
fails the test on any violation), never asking anything of another origin."""

import pytest

from pyengine.i18n import translate


def test_a_lobby_card_leads_to_the_rules_in_the_players_language(context, site):
    page = context.new_page()
    page.goto(site.url)  # the lobby is static: no need to wait for the engine
    page.click("#settings summary")
    page.select_option("#lang", "it")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert page.locator('.card[data-game="lasca"] .card-seats').inner_text() == "2 giocatori"  # a plural, picked by the page
    link = page.locator('.card[data-game="lasca"] a[data-howto]')
    assert link.inner_text().strip() == translate("it", "howto.link")
    assert link.get_attribute("href") == "howto/lasca.it.html"
    link.click()
    page.wait_for_url("**/howto/lasca.it.html")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.locator("main h1").inner_text() == "Come si gioca a Lasca"
    assert page.locator("main").inner_text().count(translate("it", "opt.lasca.draw_by_agreement")) == 1
    assert page.evaluate("getComputedStyle(document.querySelector('main.howto')).maxWidth") != "none"  # styled
    page.click("a[hreflang=pt-BR]")  # our Portuguese is Brazilian
    page.wait_for_url("**/howto/lasca.pt.html")
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    assert page.locator("main h1").inner_text() == "Como jogar Lasca"
    page.click("[data-testid=howto-back]")
    page.locator('.card[data-game="perudo"]').wait_for()
    assert context.recorder.foreign(site.origin) == []


@pytest.mark.caching
def test_the_rules_open_offline_and_from_the_game_bar(context, site, wait_engine):
    page = context.new_page()
    page.goto(site.url)
    wait_engine(page)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.click("[data-open=crown_anchor]")
    page.locator('form[data-form="setup"][data-game="crown_anchor"]').wait_for()
    bar_link = page.locator("#howto-link")
    assert bar_link.is_visible() and bar_link.get_attribute("href") == "howto/crown_anchor.en.html"
    assert bar_link.get_attribute("target") == "_blank"
    context.set_offline(True)
    for game, lang, title in (("crown_anchor", "en", "How to play Crown and Anchor"),
                              ("bozo", "ca", "Com es juga al Bozó"), ("perudo", "es", "Cómo se juega al Perudo")):
        rules = context.new_page()
        rules.goto(f"{site.url}howto/{game}.{lang}.html")
        assert rules.locator("main h1").inner_text() == title
        assert rules.locator("main h2").count() >= 4
        rules.close()
    assert context.recorder.foreign(site.origin) == []
