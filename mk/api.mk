# The public C API (include/resolv-k8s.h).
