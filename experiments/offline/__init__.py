"""The credential-free Pulumi engine: the real program under the SDK's mocks.

Modules: ``engine`` (run a program under mocks, record every registration), ``mock_monitor`` (the
SDK's mock monitor answering on the event loop's thread), ``simulated_cluster``
(the existing OpenShift cluster an adopt/join stack looks up, built from its config),
``ibm_outputs`` (IBM-shaped IDs and outputs), ``ibm_rules`` and ``k8s_rules`` (which input changes
replace a resource, from the providers' own rules; ``ibm_force_new.json`` is generated).
"""
