# SPDX-License-Identifier: Apache-2.0
# make release: what `make images` builds (ARCHES, amd64 and arm64 by
# default), the chart `helm package`d, the SBOM and SHA256SUMS, all of the
# one version of mk/version.sh, in $(B)/release/VERSION/ (mk/release.sh).
# Its test pushes the chart to a registry of its own on the loopback,
# renders it from there by version, and the upgrade from the chart before
# (tests/release/release_test.sh).
.PHONY: release test-release
release: images $(CONTAINER_HELM)
	mk/release.sh $(B)

TESTS += test-release
test-release: release $(CONTAINER_NODE_MODULES)
	tests/release/release_test.sh $(B)
