"""Kubernetes objects as plain manifests (pods, mapping ConfigMap) and their declaration."""
