"""Page predicates the game tests wait on (functions: the page's CSP refuses eval'd strings)."""

# The table was redrawn past version ``v`` (every move bumps the version).
NEWER = "v => +document.querySelector('#game-area .tb-table')?.dataset.version > v"

# A data-ui tap changes no version: mark the table, and wait until a fresh one replaced it.
MARK = "() => { document.querySelector('#game-area .tb-table').dataset.stale = '1'; }"
REDRAWN = """() => {
  const area = document.getElementById("game-area");
  const table = area.querySelector(".tb-table");
  return !area.hasAttribute("aria-busy") && table && !table.dataset.stale;
}"""
