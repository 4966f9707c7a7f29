"""The message catalogs: complete in every language, plurals with every form a language needs,
the same placeholders everywhere, numbers written as each language writes them, and no raw
key on any screen of any game in any language."""

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from buildtools.po import PACKAGE, PLURAL_FORMS, compile_catalogs, read_po
from pyengine.core.registry import declarations
from pyengine.i18n import LANGUAGES, Translator, catalog, format_number, translate
from pyengine.shell import calls
from pyengine.shell.screens import game_over, handoff, seat_names
from tests.app.screens import buttons
from tests.markup_check import random_play_views

ENGLISH_CATALOGS = sorted([*PACKAGE.glob("i18n/*.en.po"), *PACKAGE.glob("games/*/i18n/*.en.po")])
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLAYABLE = [d for d in declarations() if d.playable]


def forms(template) -> list:
    return list(template.values()) if isinstance(template, dict) else [template]


def placeholders(template) -> set:
    return {name for text in forms(template) for name in PLACEHOLDER.findall(text)}


def translations_of(english: Path):
    for lang in LANGUAGES:
        yield lang, english.with_name(english.name.replace(".en.po", f".{lang}.po"))


@pytest.mark.parametrize("english", ENGLISH_CATALOGS, ids=lambda p: p.name)
def test_every_language_has_exactly_the_keys_english_has(english):
    keys = set(read_po(english))
    assert keys
    for lang, path in translations_of(english):
        assert path.exists(), f"{path.name} is missing"
        found = set(read_po(path))
        assert sorted(keys - found) == [], f"{path.name} lacks these keys"
        assert sorted(found - keys) == [], f"{path.name} has keys English does not"


@pytest.mark.parametrize("english", ENGLISH_CATALOGS, ids=lambda p: p.name)
def test_messages_are_translated_with_the_same_placeholders_and_every_plural_form(english):
    source = read_po(english)
    for lang, path in translations_of(english):
        messages = read_po(path)
        for key, template in messages.items():
            assert all(text.strip() for text in forms(template)), (path.name, key, "empty form")
            assert placeholders(template) == placeholders(source[key]), (path.name, key)
            if isinstance(source[key], dict):  # counted in English: counted everywhere
                assert isinstance(template, dict), (path.name, key, "needs plural forms")
        text = path.read_text(encoding="utf-8")
        assert f'"Plural-Forms: {PLURAL_FORMS[lang]}\\n"' in text, path.name
        nplurals = int(re.match(r"nplurals=(\d+)", PLURAL_FORMS[lang])[1])
        for block in text.split("\n\n"):  # each entry: msgstr[0] .. msgstr[n-1], none missing
            if "msgid_plural" in block:
                indices = sorted(int(i) for i in re.findall(r"^msgstr\[(\d+)\]", block, re.M))
                assert indices == list(range(nplurals)), (path.name, block.splitlines()[0])


def test_a_counted_message_uses_count_and_every_plural_takes_it():
    english = catalog("en")
    plural = [key for key, value in english.items() if isinstance(value, tuple)]
    assert len(plural) >= 15
    for key in plural:
        assert "count" in placeholders(dict(enumerate(english[key]))) or key.startswith("perudo.face."), key


def test_plural_forms_follow_each_language():
    assert translate("en", "perudo.dice_count", count=1) == "1 die"
    assert translate("en", "perudo.dice_count", count=0) == "0 dice"
    assert translate("en", "perudo.there_were", count=1, face="four") == "There was 1 four."
    assert translate("pt", "perudo.dice_count", count=0) == "0 dado"  # Brazilian: 0 and 1 are singular
    assert translate("pt", "perudo.dice_count", count=2) == "2 dados"
    assert translate("ca", "perudo.dice_count", count=1) == "1 dau"
    assert translate("it", "perudo.dice_count", count=1000) == "1000 dadi"
    assert translate("es", "perudo.dice_count", count=12345) == "12.345 dados"
    assert translate("en", "setup.players_exact", count=4) == "Players (4)"


def test_numbers_are_written_as_each_language_writes_them_as_the_browser_does():
    """Checked against Node's ICU (Intl.NumberFormat), which the build needs anyway."""
    numbers = [0, 7, -42, 999, 1000, 1234, -12345, 123456, 1234567, 12.5, -1234.75, 1000000.5]
    script = f"const n = {json.dumps(numbers)}; const o = {{}};" + "".join(
        f"o[{json.dumps(lang)}] = n.map(x => new Intl.NumberFormat({json.dumps(lang)}, {{maximumFractionDigits: 9}}).format(x));"
        for lang in LANGUAGES
    ) + "console.log(JSON.stringify(o));"
    node = shutil.which("node")
    assert node, "Node.js is needed (the build needs it too)"
    expected = json.loads(subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout)
    for lang in LANGUAGES:
        assert [format_number(lang, x) for x in numbers] == expected[lang], lang


def test_compiled_catalogs_match_their_sources(tmp_path):
    for path in compile_catalogs(out=tmp_path):
        assert path.stat().st_size > 1000
    assert catalog("it")["lobby.bozo.blurb"] != catalog("en")["lobby.bozo.blurb"]


# --- no raw key on any screen ---------------------------------------------------------------
NAMESPACES = sorted({key.split(".")[0] for key in catalog("en") if "." in key} | {"err", "opt", "level", "lobby"})
RAW_KEY = re.compile(r"(?<![\w./-])(?:" + "|".join(map(re.escape, NAMESPACES)) + r")\.[a-z0-9_]+(?:\.[a-z0-9_]+)*")


def raw_keys(html: str) -> list:
    """Key-shaped words and unfilled ``{placeholders}`` in the text and attributes a player
    reads (not in data- attributes or class names, which carry identifiers on purpose)."""
    readable = re.sub(r'\s(?:data-[\w-]+|class|id|name|for|href|src|aria-describedby|aria-controls|aria-labelledby|value)="[^"]*"', "", str(html))
    readable = re.sub(r"<(?:path|use)[^>]*>", "", readable)
    return RAW_KEY.findall(readable) + PLACEHOLDER.findall(readable)


def call(fn, *args):
    return json.loads(fn(*[a if isinstance(a, str) else json.dumps(a) for a in args]))


def shell_screens(declaration, lang: str, seed: int):
    """Screens the shell shows around a game: setup, a played table through the worker (bots,
    pass-and-play hand-offs, refusals), hand-off and game-over screens."""
    worker = calls.WORKER
    yield call(worker.setup, declaration.id, lang)["html"]
    seats = declaration.max_seats
    bot = f"bot:{declaration.rules.bot_levels[0]}"
    fields = {"seed": str(seed), **{f"seat{i}_kind": "human" if i < 2 else bot for i in range(seats)}}
    reply = call(worker.start, {"game": declaration.id, "fields": fields}, lang)
    assert reply["ok"], reply
    chooser = random.Random(seed)
    for _ in range(40):
        yield reply["html"]
        if reply["status"] == "over":
            break
        if reply["status"] == "handoff":
            change = next(c for c in buttons(reply["html"], "data-ui") if "handoff" in c)
            reply = call(worker.ui, change, lang)
        elif reply["status"] == "bot":
            reply = call(worker.bot_step, lang)
        else:
            acts, changes = buttons(reply["html"], "data-act"), buttons(reply["html"], "data-ui")
            if not (acts or changes):
                break
            if acts:
                reply = call(worker.act, chooser.choice(acts), lang)
            else:  # a screen shown in steps (Lasca: pick a column, then its landing square)
                reply = call(worker.ui, chooser.choice(changes), lang)
            if not reply["ok"]:
                yield reply.get("message", "")
                reply = call(worker.render, lang)
    t = Translator(lang)
    names = ["Ana", "Rui", "Bo"]
    yield handoff(t, 1, names, [])
    yield game_over(t, {"winners": [0]}, names, True)
    yield game_over(t, {"winners": [0, 1]}, names, False)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("declaration", PLAYABLE, ids=lambda d: d.id)
def test_no_screen_shows_a_raw_key(declaration, lang):
    t = Translator(lang)
    found = []
    for html in shell_screens(declaration, lang, seed=11):
        found += raw_keys(html)
    game, screen = declaration.rules, declaration.screen()
    uis = [{}, *({name: True} for name in screen.persistent_ui)]
    for number, view in enumerate(random_play_views(game, {}, game.min_seats, seed=5, every=2)):
        found += raw_keys(screen.render(view, dict(uis[number % len(uis)]), t))
    for level in game.bot_levels:
        found += [f"level.{declaration.id}.{level}"] if translate(lang, f"level.{declaration.id}.{level}").startswith("level.") else []
    for name, option in game.options.items():  # every choice of every option, as setup shows it
        found += [k for k in (f"opt.{declaration.id}.{name}",) if translate(lang, k) == k]
        for choice in getattr(option, "choices", None) or ():
            key = f"opt.{declaration.id}.{name}.{choice}"
            found += [key] if translate(lang, key) == key else []
    assert sorted(set(found)) == []


def test_the_raw_key_finder_finds_keys():
    assert raw_keys("<p>Bot (level.lasca.easy)</p>") == ["level.lasca.easy"]
    assert raw_keys('<p title="perudo.round">x</p>') == ["perudo.round"]
    assert raw_keys('<p data-i18n="perudo.round" class="perudo.round">Round 2, test.mosquitto.org</p>') == []
    assert raw_keys("<p>first to {count} points</p>") == ["count"]


def test_no_language_is_mostly_english():
    """Game terms and names may stay as they are (Dudo, Palifico, the Bozó faces), but nothing
    like a catalog left in English: fewer than one message in ten reads as English does."""
    english = catalog("en")
    for lang in LANGUAGES[1:]:
        same = [key for key, text in catalog(lang).items() if text == english[key]]
        assert len(same) < len(english) / 10, (lang, same)


def test_catalan_elides_de_and_the_article_before_a_vowel_sound_in_a_name_or_card():
    assert translate("ca", "sync.invite_label", name="Anna") == "Convidar un amic al seient d'Anna"
    assert translate("ca", "sync.invite_label", name="Hugo").endswith("seient d'Hugo")
    assert translate("ca", "sync.invite_label", name="Berta").endswith("seient de Berta")
    assert translate("ca", "bog.status.you_play_one", card="A♥") == "Et toca: juga l'A♥."
    assert translate("ca", "bog.status.you_play_one", card="K♥") == "Et toca: juga el K♥."
    assert translate("es", "sync.invite_label", name="Anna").endswith("de Anna")  # Catalan only


def test_catalan_refusal_to_follow_suit_reads_as_catalan():
    assert translate("ca", "err.botifarra.must_follow") == "Has d'assistir al pal de sortida."


# The dice cup: one word per language on every screen and how-to page (the first of each list),
# never one of the others a translator might reach for (each with its plural).
CUP_WORDS = {
    "en": ("cup", "shaker", "shakers", "beaker", "beakers"),
    "pt": ("copo", "caneca", "canecas", "copinho", "copinhos"),
    "es": ("cubilete", "vaso", "vasos", "cornete", "cornetes"),
    "ca": ("got", "gobelet", "gobelets", "cubilet", "cubilets", "cornet", "cornets"),
    "it": ("bicchiere", "bussolotto", "bussolotti", "bossolo", "bossoli", "tazza", "tazze"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_word_for_the_dice_cup_on_screens_and_how_to_pages(lang):
    sources = [*PACKAGE.glob(f"i18n/*.{lang}.po"), *PACKAGE.glob(f"games/*/i18n/*.{lang}.po"),
               *PACKAGE.glob(f"games/*/howto/{lang}.md")]
    words = set(re.findall(r"\w+", " ".join(path.read_text(encoding="utf-8") for path in sources).lower()))
    cup, *others = CUP_WORDS[lang]
    assert cup in words and words.isdisjoint(others), words & set(others)


def test_names_nobody_typed_follow_the_viewers_language():
    worker = calls.Worker()
    fields = {"seat0_kind": "human", "seat1_kind": "bot:easy", "seat2_kind": "bot:easy", "seat2_name": "Ana", "seed": "3"}
    made = json.loads(worker.start(json.dumps({"game": "perudo", "fields": fields}), "es"))
    assert [seat["name"] for seat in json.loads(made["save"])["seats"]] == ["", "", "Ana"]
    assert "Jugador 1" in made["html"] and "Bot 2" in made["html"]
    shown = json.loads(worker.render("pt"))["html"]
    assert "Jogador 1" in shown and "Jugador 1" not in shown and "Ana" in shown
    seats = [{"kind": "remote", "name": ""}, {"kind": "bot", "level": "easy", "name": ""}, {"kind": "human", "name": "Bea"}]
    assert seat_names(seats, Translator("pt")) == ["Amigo 1", "Bot 2", "Bea"]
    assert seat_names(seats, Translator("en")) == ["Friend 1", "Bot 2", "Bea"]
