"""Rules across fields and layers, run once by ``validation`` on the config and its plan."""
