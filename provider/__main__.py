"""The component provider's process: Pulumi starts it (PulumiPlugin.yaml) and asks it for the schema and
for each GpuCluster (components/package/)."""

from components.package import serve

if __name__ == "__main__":
    serve()
