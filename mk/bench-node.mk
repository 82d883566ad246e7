# SPDX-License-Identifier: Apache-2.0
# make bench-node: the node-local cache against unbound and CoreDNS, set up the way
# NodeLocal DNSCache is (tests/bench/node_bench.sh); writes $(B)/bench-node.md.
# Needs root (pod sandboxes), unbound and dnsperf (mk/packages.sh).

# rtt-probe: the bare round trips under the warm lookups.
$(B)/tests/rtt-probe: tests/bench/rtt-probe.c
	@mkdir -p $(@D)
	$(CC) $(PROBE_CFLAGS) $< -o $@

.PHONY: bench-node
bench-node: $(POD_TEST_DEPS) $(COREDNS_BIN) $(B)/tests/gai-probe-musl $(B)/tests/go-probe $(B)/tests/ares-probe \
    $(B)/tests/res-probe $(B)/tests/rtt-probe
	tests/bench/node_bench.sh $(B)

# The misses over TLS alone (the server, unbound, dnsperf): $(B)/bench-node-tls.md.
.PHONY: bench-node-tls
bench-node-tls: $(SERVER_BIN)
	BENCH_ONLY=tls tests/bench/node_bench.sh $(B)

# The warm pass and its floor alone (the library's own time per lookup):
# $(B)/bench-node-floor.md.
.PHONY: bench-node-floor
bench-node-floor: $(POD_TEST_DEPS) $(COREDNS_BIN) $(B)/tests/rtt-probe
	BENCH_ONLY=floor tests/bench/node_bench.sh $(B)

# The instructions per cache hit, counted by callgrind (tests/bench/node_callgrind.sh):
# $(B)/bench-node-callgrind.md.
.PHONY: bench-node-callgrind
bench-node-callgrind: $(SERVER_BIN)
	tests/bench/node_callgrind.sh $(B)
