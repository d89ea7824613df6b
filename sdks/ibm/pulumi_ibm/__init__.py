# coding=utf-8
# Hand-written stand-in for the package `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md): same module layout, class names, tokens and wire names.
"""IBM Cloud (terraform-provider-ibm 2.5.0) resources for Pulumi — hand-written subset."""

from . import _utilities
from . import outputs as outputs
from ._inputs import *  # noqa: F403
from .get_is_cluster_network_profile import *  # noqa: F403
from .get_is_image import *  # noqa: F403
from .get_is_instance import *  # noqa: F403
from .get_is_instance_profile import *  # noqa: F403
from .get_is_instances import *  # noqa: F403
from .get_is_security_group import *  # noqa: F403
from .get_is_ssh_key import *  # noqa: F403
from .get_is_subnet import *  # noqa: F403
from .get_is_vpc import *  # noqa: F403
from .get_resource_group import *  # noqa: F403
from .is_cluster_network import *  # noqa: F403
from .is_cluster_network_interface import *  # noqa: F403
from .is_cluster_network_subnet import *  # noqa: F403
from .is_cluster_network_subnet_reserved_ip import *  # noqa: F403
from .is_instance import *  # noqa: F403
from .is_instance_action import *  # noqa: F403
from .is_instance_cluster_network_attachment import *  # noqa: F403
from .is_instance_network_attachment import *  # noqa: F403
from .is_instance_network_interface import *  # noqa: F403
from .is_public_gateway import *  # noqa: F403
from .is_security_group import *  # noqa: F403
from .is_security_group_rule import *  # noqa: F403
from .is_ssh_key import *  # noqa: F403
from .is_subnet import *  # noqa: F403
from .is_subnet_reserved_ip import *  # noqa: F403
from .is_virtual_network_interface import *  # noqa: F403
from .is_vpc import *  # noqa: F403
from .is_vpc_address_prefix import *  # noqa: F403
from .provider import *  # noqa: F403

__version__ = _utilities.get_version()

# Resource references coming back from the engine are rehydrated into these classes.
_utilities.register(
    resource_classes=(
        "IsClusterNetwork",
        "IsClusterNetworkInterface",
        "IsClusterNetworkSubnet",
        "IsClusterNetworkSubnetReservedIp",
        "IsInstance",
        "IsInstanceAction",
        "IsInstanceClusterNetworkAttachment",
        "IsInstanceNetworkAttachment",
        "IsInstanceNetworkInterface",
        "IsPublicGateway",
        "IsSecurityGroup",
        "IsSecurityGroupRule",
        "IsSshKey",
        "IsSubnet",
        "IsSubnetReservedIp",
        "IsVirtualNetworkInterface",
        "IsVpc",
        "IsVpcAddressPrefix",
    ),
    provider_class="Provider",
)
