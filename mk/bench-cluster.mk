# SPDX-License-Identifier: Apache-2.0
# make bench-cluster: a cluster in a box, kube-dns only, NodeLocal DNSCache
# (unbound) and ours side by side on the same pods and lookups, then ours
# with each of autopath's opt-in cuts (tests/bench/cluster_bench.sh);
# writes $(B)/bench-cluster.json and .md.
# BENCH_NODES, BENCH_PODS, BENCH_LOOKUPS, BENCH_INTERVAL_MS size it. Needs
# root (network namespaces) and unbound (mk/packages.sh).
BENCH_CLUSTER_DEPS := $(POD_TEST_DEPS) $(B)/tests/gai-probe-musl-static $(B)/tests/go-probe

.PHONY: bench-cluster test-bench-cluster
bench-cluster: $(BENCH_CLUSTER_DEPS)
	tests/bench/cluster_bench.sh $(B)

# The harness itself on a small box, no timing asserted.
TESTS += test-bench-cluster
test-bench-cluster: $(BENCH_CLUSTER_DEPS)
	tests/bench/cluster_bench_test.sh $(B)
