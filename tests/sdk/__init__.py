"""Tests of sdks/ibm: the pulumi_ibm stand-in against the provider reference."""
