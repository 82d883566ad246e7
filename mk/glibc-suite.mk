# SPDX-License-Identifier: Apache-2.0
# glibc's own resolver tests (resolv/tst-resolv-*, tst-bug18665*) with its
# support/ library, from Debian's source package of the system's glibc
# (mk/fetch-source.sh: the machine's libc6 revision), built standalone
# against that glibc (tests/glibc-suite/build.sh) and cached under
# $(GLIBC_SUITE); test-glibc-suite runs each plainly and with the library.

GLIBC_SUITE := $(B)/glibc-suite
GLIBC_SUITE_DEB := glibc=$(shell dpkg-query -W -f='$${source:Version}' libc6:$$(dpkg --print-architecture) 2>/dev/null)
GLIBC_SUITE_SRC = $(patsubst %/resolv,%,$(firstword $(wildcard $(GLIBC_SUITE)/src/glibc-*/resolv)))

$(GLIBC_SUITE)/src/.fetched: mk/fetch-source.sh
	mk/fetch-source.sh $(@D) $(GLIBC_SUITE_DEB)
	@echo $(patsubst glibc=%,%,$(GLIBC_SUITE_DEB)) > $(GLIBC_SUITE)/version
	@touch $@
$(GLIBC_SUITE)/built: tests/glibc-suite/build.sh $(GLIBC_SUITE)/src/.fetched
	tests/glibc-suite/build.sh $(GLIBC_SUITE_SRC) $(GLIBC_SUITE)
	@touch $@

TESTS += test-glibc-suite
.PHONY: test-glibc-suite
test-glibc-suite: $(GLIBC_SUITE)/built $(B)/glibc/libresolv-k8s.so
	tests/glibc-suite/suite_test.sh $(B)
