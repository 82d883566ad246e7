# SPDX-License-Identifier: Apache-2.0
# The manifests of container/ and `resolv-k8s inject`, checked against the
# Kubernetes API's schemas: the npm kubernetes-models packages, pinned in
# tests/container/package-lock.json, installed under $(B)/node_modules.

CONTAINER_NODE_MODULES := $(B)/node_modules/.installed

$(CONTAINER_NODE_MODULES): tests/container/package.json tests/container/package-lock.json
	@mkdir -p $(B)
	cp $^ $(B)/
	cd $(B) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

TESTS += test-container
.PHONY: test-container
test-container: $(TOOL_BIN) $(SERVER_BIN) $(CONTAINER_NODE_MODULES)
	tests/container/container_test.sh $(B)

# The admission webhook (`resolv-k8s webhook`) over TLS in a network
# namespace, against inject and the schemas.
TESTS += test-webhook
.PHONY: test-webhook
test-webhook: $(TOOL_BIN) $(CONTAINER_NODE_MODULES)
	tests/webhook/webhook_test.sh $(B)
