"""The Kubernetes components: fabric (NADs, SR-IOV, RDMA, node prep), training job, NCCL benchmark."""
