"""Views of a game: ``text`` (the terminal), ``image`` (PNG frames and GIFs of Contack), ``contactix`` (CON-TAC-TIX boards)."""
