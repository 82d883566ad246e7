# SPDX-License-Identifier: Apache-2.0
# make demo: the README's main command. Real programs in a pod sandbox,
# with plain glibc and through the library, against the companion server.
# Only the packages the build and the demo need (mk/packages.sh build),
# then what it runs, built on every core (DEMO_JOBS): its programs are
# glibc's, so the glibc library alone, in the tree the tests preload from.

DEMO_JOBS ?= $(shell nproc)
.PHONY: demo
demo: deps-build-packages
	$(MAKE) --no-print-directory -j$(DEMO_JOBS) $(B)/glibc/libresolv-k8s.so $(PRELOAD_DIR)/.laid \
	  $(SERVER_BIN) $(TOOL_BIN)
	@mk/demo.sh $(B)
