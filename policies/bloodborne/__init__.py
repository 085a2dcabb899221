"""Bloodborne policies: one module per policy, registered in ``dsim.games.bloodborne.policy.REGISTRY``."""
