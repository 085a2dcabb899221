"""Strategies of a DS:TBG game played whole: one module per strategy, registered in
``dsim.games.dstbg_game.strategy.REGISTRY``."""
