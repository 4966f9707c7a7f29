"""Game-agnostic mechanics shared by every game: the contract, RNG, options, Table."""
