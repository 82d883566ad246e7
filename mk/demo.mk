# SPDX-License-Identifier: Apache-2.0
# make demo: the README's main command. Real programs in a pod sandbox,
# with plain glibc and through the library, against the companion server.
# Only the packages the build and the demo need (make deps-build).

.PHONY: demo
demo: deps-build
	$(MAKE) --no-print-directory $(PRELOAD_DEPS) $(SERVER_BIN) $(TOOL_BIN)
	@mk/demo.sh $(B)
