"""An agent wrapper for tests: every move the wrapped agent makes must be one of the legal moves it was given."""


class LegalOnly:
    """Wraps an agent, asserts that each move it makes is in the ``legal`` it was given, and counts its moves."""

    def __init__(self, agent):
        self.agent = agent
        self.moves = 0

    def reset(self):
        self.agent.reset()

    def act(self, state, legal):
        move = self.agent.act(state, legal)
        assert move in legal, f"{move!r} is not among the legal moves {legal!r}"
        self.moves += 1
        return move
