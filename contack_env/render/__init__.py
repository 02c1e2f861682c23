"""Views of a game: ``text`` (the terminal), ``image`` (pictures of Contack states and records), ``contactix``
(CON-TAC-TIX boards), ``pictures`` (records of either format as a GIF or a PNG strip)."""
