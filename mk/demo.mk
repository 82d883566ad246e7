# SPDX-License-Identifier: Apache-2.0
# make demo: the README's main command. Real programs in a pod sandbox,
# with plain glibc and through the library, against the companion server.
# Only the packages the build and the demo need (mk/packages.sh build),
# then what it runs, built on every core (DEMO_JOBS).

DEMO_JOBS ?= $(shell nproc)
.PHONY: demo
demo: deps-build-packages
	$(MAKE) --no-print-directory -j$(DEMO_JOBS) $(TP_LIBS) $(PRELOAD_DEPS) $(SERVER_BIN) $(TOOL_BIN)
	@mk/demo.sh $(B)
