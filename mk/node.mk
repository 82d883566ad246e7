# SPDX-License-Identifier: Apache-2.0
# Node tests (need root): the node-local cache in a sandbox, in front of two
# cluster DNS replicas and an external upstream, pods with and without the
# shim behind it (tests/node/). One script per family: `make test-node-FAMILY`.

NODE_FAMILIES := answers autopath marker rcodes conformance cache metrics prefetch stale failover transport tls overload abuse attack config lifecycle network crash rollout migration nftables uninstall switch coredns
NODE_TESTS := $(NODE_FAMILIES:%=test-node-%)

TESTS += test-node
.PHONY: test-node $(NODE_TESTS)
test-node: $(NODE_TESTS)
$(NODE_TESTS): test-node-%: $(SERVER_BIN) $(PRELOAD_DEPS) $(MUSL_PROBE) $(B)/tests/gai-probe-glibc \
    $(B)/tests/gai-probe-musl
	tests/node/$*_test.sh $(B)

# The soak (tests/node/soak_test.sh): SOAK_SECONDS of load and faults;
# `make test` runs a minute of it.
SOAK_SECONDS ?= 600
TESTS += test-soak
.PHONY: soak test-soak
soak: $(SERVER_BIN)
	SOAK_SECONDS=$(SOAK_SECONDS) tests/node/soak_test.sh $(B)
test-soak: $(SERVER_BIN)
	SOAK_SECONDS=60 tests/node/soak_test.sh $(B)

# The clients the marker path serves that walk the list themselves
# (tests/node/clients/): Go's resolver without cgo, c-ares's
# ares_getaddrinfo, glibc's res_search; dnspython and Ruby run from their
# sources.
$(B)/tests/go-probe: tests/node/clients/go_probe.go
	@mkdir -p $(@D)
	cd $(<D) && CGO_ENABLED=0 GO111MODULE=off GOCACHE=$(abspath $(B))/go-cache HOME=$(abspath $(B)) \
	  go build -o $(abspath $@) $(<F)
$(B)/tests/ares-probe: tests/node/clients/ares_probe.c $(TP)/glibc/lib/libcares.a
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra $(call THIRD_PARTY_FLAGS,glibc) $< $(TP)/glibc/lib/libcares.a -o $@
$(B)/tests/res-probe: tests/node/clients/res_probe.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra $< -o $@ -lresolv
test-node-marker: $(B)/tests/go-probe $(B)/tests/ares-probe $(B)/tests/res-probe
