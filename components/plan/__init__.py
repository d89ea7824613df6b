"""The plan: addresses, the fabric's and the job's decisions, computed once from a validated config."""
