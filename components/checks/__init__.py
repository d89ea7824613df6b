"""Rules across fields and layers, run once by ``validation`` on the config and its plan, and ``discovery``:
the existing cluster looked up through any ``CloudLookups`` (Pulumi-free, so offline planning never loads it)."""
