"""dsim: simulation and balance analysis for co-operative dungeon board games."""

__version__ = "0.1.0"
