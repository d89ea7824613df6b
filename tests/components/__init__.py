"""Tests of components/: config, checks, plan and every component under the shared mocks."""
