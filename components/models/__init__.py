"""Config models: validated fields of the one gpu-cluster:cluster object, and the profile catalog."""
