"""Dark Maiden policies: one module per policy, registered in ``dsim.games.dark_maiden.policy.REGISTRY``."""
