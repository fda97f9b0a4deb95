"""The game's rules by area, read by ``engine.game.Game`` (construction, apply/undo and turn
flow stay there): ``workroom`` (placing dice in a studio), ``museum`` (giving card dice to
the museum) and ``artists`` (one rule object per artist: what it offers, why a use is
refused, what it does).  Each function takes the game whose current player acts; they only
read it, except the artists' ``apply``, which ``Game._do_use`` calls once the move is
checked."""
