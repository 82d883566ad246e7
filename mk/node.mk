# Node tests (need root): the node-local cache in a sandbox, in front of two
# cluster DNS replicas and an external upstream, pods with and without the
# shim behind it (tests/node/). One script per family: `make test-node-FAMILY`.

NODE_FAMILIES := answers autopath rcodes cache failover transport overload config lifecycle network
NODE_TESTS := $(NODE_FAMILIES:%=test-node-%)

TESTS += test-node
.PHONY: test-node $(NODE_TESTS)
test-node: $(NODE_TESTS)
$(NODE_TESTS): test-node-%: $(SERVER_BIN) $(PRELOAD_SO) $(MUSL_PROBE) $(B)/tests/gai-probe-glibc \
    $(B)/tests/gai-probe-musl
	tests/node/$*_test.sh $(B)
