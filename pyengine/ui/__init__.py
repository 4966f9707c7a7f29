"""Pure HTML/SVG building blocks shared by the games' seat views (no DOM, CPython-testable)."""
