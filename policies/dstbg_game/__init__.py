"""Strategies of a DS:TBG game played whole: one module per strategy, registered in
``dsim.games.dstbg.whole.strategy.REGISTRY``."""
