# SPDX-License-Identifier: Apache-2.0
# make cluster: a real Kubernetes on this machine (tests/cluster/), its
# programs, each go.mod's tools, built from the modules tests/cluster/*/go.mod
# pin, in the user's Go caches (the first build compiles Kubernetes, about
# 9 CPU-minutes, 6 on both cores here; later ones relink).

KUBE_VERSION := v1.37.2
KUBE_BIN := $(B)/cluster/bin
# What Kubernetes' own build (hack/lib/version.sh) writes into its programs:
# a binary without it says v0.0.0-master, which charts' kubeVersion refuse.
kube_version_x = $(foreach p,k8s.io/component-base/version k8s.io/client-go/pkg/version,\
  -X $(p).gitVersion=$(KUBE_VERSION) -X $(p).gitMajor=1 -X $(p).gitMinor=37 \
  -X $(p).gitTreeState=clean -X $(p).buildDate=1970-01-01T00:00:00Z)
$(KUBE_BIN)/.built: tests/cluster/kubernetes/go.mod tests/cluster/kubernetes/go.sum tests/cluster/kubernetes/etcd/main.go
	@mkdir -p $(@D)
	cd tests/cluster/kubernetes && CGO_ENABLED=0 go build -trimpath -ldflags '$(kube_version_x)' \
	  -o $(abspath $(@D))/ tool ./etcd
	touch $@

# CoreDNS's suites feed it from the real API server (tests/lib/kube_api.sh).
test-coredns test-node-coredns: $(KUBE_BIN)/.built

# A node's runtime: containerd, its shim and ctr beside Kubernetes'
# programs, the CNI plugins in their own directory (a node's /opt/cni/bin).
$(KUBE_BIN)/.node: tests/cluster/node/go.mod tests/cluster/node/go.sum
	@mkdir -p $(@D)/cni
	cd tests/cluster/node && CGO_ENABLED=0 go build -trimpath -tags no_btrfs -o $(abspath $(@D))/ $$(go list tool | grep /cmd/)
	cd tests/cluster/node && CGO_ENABLED=0 go build -trimpath -o $(abspath $(@D))/cni/ $$(go list tool | grep /plugins/)
	touch $@

CLUSTER_DEPS := $(KUBE_BIN)/.built $(KUBE_BIN)/.node $(COREDNS_BIN) $(SERVER_BIN) images \
  $(B)/tests/gai-probe-glibc $(B)/tests/gai-probe-musl $(MUSL_PROBE) $(B)/tests/go-probe $(B)/tests/res-probe \
  $(B)/bin/helm
.PHONY: cluster cluster-down
cluster: deps $(CLUSTER_DEPS)
	tests/cluster/cluster.sh up $(B)
cluster-down:
	tests/cluster/cluster.sh down $(B)

TESTS += test-cluster
.PHONY: test-cluster
test-cluster: $(CLUSTER_DEPS)
	tests/cluster/cluster_test.sh $(B)
