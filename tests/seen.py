"""What a seat may play as its own device sees it. At a fair card table the state holds every
hand sealed and only the seat's device (``Table.held``) reads its own; a card it plays goes
with its position and key (``Table.complete``). Elsewhere this is the game's own list."""


def legal_actions_seen(table, seat: int) -> list:
    state = table.game.with_own_cup(table.state, seat, table.held) if table.held else table.state
    return table.game.legal_actions(state, seat)
