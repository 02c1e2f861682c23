"""A Contack game with its face-down tiles in another order, for the tests that the search-guided tools never read
them."""


def reordered(game, rng):
    """``game`` with every face-down tile in another order (the pile, later deals); what is seen unchanged."""
    other = game.clone()
    h = game.hand_number
    decks = [list(d) for d in game.decks]
    tail = decks[h][game.pile_pos:]
    decks[h][game.pile_pos:] = [tail[i] for i in rng.permutation(len(tail))]
    for k in range(h + 1, len(decks)):
        decks[k] = [int(t) for t in rng.permutation(36)]
    other.decks = decks
    return other
