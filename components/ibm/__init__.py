"""The IBM Cloud components: VPC network, cluster network, GPU nodes, the whole cloud layer, and ``lookup``
(``SdkLookups``: the provider's data sources that ``components.checks.discovery.discover`` asks)."""
