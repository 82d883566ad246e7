# SPDX-License-Identifier: Apache-2.0
# CoreDNS itself (tests/coredns/): the published module at the release
# kubeadm deploys, with kubeadm's plugins alone, built in the user's Go
# caches (the first build downloads and compiles CoreDNS's dependencies,
# later ones relink), the suite that checks the closed world against it,
# and the node's suite in front of it (tests/node/coredns_test.sh), both
# with the real API server feeding it (mk/cluster.mk builds it).

COREDNS_BIN := $(B)/bin/coredns
$(COREDNS_BIN): tests/coredns/main.go tests/coredns/go.mod tests/coredns/go.sum
	@mkdir -p $(@D)
	cd tests/coredns && CGO_ENABLED=0 go build -trimpath -o $(abspath $@) .

test-node-coredns: $(COREDNS_BIN)

TESTS += test-coredns
.PHONY: test-coredns
test-coredns: $(COREDNS_BIN) $(SERVER_BIN)
	tests/coredns/answers_test.sh $(B)
