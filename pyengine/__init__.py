"""Taberna's rule engines: pure Python, JSON in and out, deterministic given a seed."""

__version__ = "0.1.0"
