"""Page scripts the game tests share: predicates they wait on, and the setup form's seed
(functions: the page's CSP refuses eval'd strings)."""

# The table was redrawn past version ``v`` (every move bumps the version).
NEWER = "v => +document.querySelector('#game-area .tb-table')?.dataset.version > v"

# A data-ui tap changes no version: mark the table, and wait until a fresh one replaced it.
MARK = "() => { document.querySelector('#game-area .tb-table').dataset.stale = '1'; }"
REDRAWN = """() => {
  const area = document.getElementById("game-area");
  const table = area.querySelector(".tb-table");
  return !area.hasAttribute("aria-busy") && table && !table.dataset.stale;
}"""

# Adds a hidden ``seed`` field to the setup form ``form`` (a selector; the form sends every
# named field), so that a test's table (deals, bots' choices) is the same on every run.
ADD_SEED = """([form, seed]) => {
  const input = document.createElement("input");
  Object.assign(input, {type: "hidden", name: "seed", value: String(seed)});
  document.querySelector(form).append(input);
}"""
