"""The contract and the runtime every game stands on, and nothing game-specific.

* ``game`` — ``Game``, the contract (options, setup, actions, views, bots' ``resample``);
  ``table`` — ``Table``: seats, seed and the action log of one table.
* ``options`` — table options and their catalog; ``rng`` — the portable seeded generator;
  ``shape`` — declarative checks of plain data (views, saves, messages); ``validate`` —
  small checks of untrusted plain data; ``errors`` — the refusals and their codes.
* ``registry`` — which games exist (``discover`` imports a games package; core names none);
  ``simulate`` — seeded random play-outs (contract test, benches, the browser self-test).

Family kits live in ``pyengine.kits``, the shared-table protocol in ``pyengine.protocol``.
"""
