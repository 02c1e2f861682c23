"""An agent's game played from the public view, every move checked against the legal moves it was offered."""

from agents.view import public_view


def play_out(state, agent):
    """Play ``state`` to its end with ``agent`` in every seat; the number of moves made."""
    moves = 0
    while not state.done:
        view = public_view(state)
        legal = view.legal_moves()
        move = agent.act(view, legal)
        assert move in legal
        state.play(move)  # the engine refuses an illegal move
        moves += 1
    return moves
