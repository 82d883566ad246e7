# SPDX-License-Identifier: Apache-2.0
# Pod-sandbox tests (need root): gai-probe built against each libc and the
# harness's own test; the glibc shim against glibc (differential, autopath,
# real programs, gethostbyname); the musl builds against musl.

PROBE_CFLAGS := -std=c11 -O2 -g -Wall -Wextra
GAI_PROBES := $(B)/tests/gai-probe-glibc $(B)/tests/gai-probe-musl $(B)/tests/gai-probe-musl-static
ALL += $(GAI_PROBES)

$(B)/tests/gai-probe-glibc: tests/pod/gai-probe.c
	@mkdir -p $(@D)
	$(CC) $(PROBE_CFLAGS) $< -o $@
$(B)/tests/gai-probe-musl: tests/pod/gai-probe.c
	@mkdir -p $(@D)
	$(MUSL_CC) $(PROBE_CFLAGS) $< -o $@
$(B)/tests/gai-probe-musl-static: tests/pod/gai-probe.c
	@mkdir -p $(@D)
	musl-gcc -static $(PROBE_CFLAGS) $< -o $@

# glibc's res_search, whose ns_* parsers are in libresolv.
$(B)/tests/res-dump: tests/pod/res-dump.c
	@mkdir -p $(@D)
	gcc $(PROBE_CFLAGS) $< -o $@ -lresolv
ALL += $(B)/tests/res-dump

POD_TEST_DEPS := $(PRELOAD_DEPS) $(SERVER_BIN) $(B)/tests/gai-probe-glibc

TESTS += test-pod-harness test-glibc-diff test-glibc-autopath test-programs test-hostent test-route test-musl
TESTS += test-res-search test-hardening
.PHONY: test-pod-harness test-glibc-diff test-glibc-autopath test-programs test-hostent test-route test-musl
.PHONY: test-res-search test-hardening

test-pod-harness: $(GAI_PROBES)
	tests/pod/harness_test.sh $(B)/tests

# PATTERN=... runs only the cases whose line holds it.
test-glibc-diff: $(POD_TEST_DEPS)
	tests/pod/glibc_diff_test.sh $(B) $(PATTERN)

test-glibc-autopath: $(POD_TEST_DEPS)
	tests/pod/glibc_autopath_test.sh $(B)

test-programs: $(POD_TEST_DEPS)
	tests/pod/programs_test.sh $(B)

test-hostent: $(POD_TEST_DEPS) $(B)/tests/gai-probe-musl
	tests/pod/hostent_test.sh $(B)

test-res-search: $(POD_TEST_DEPS) $(B)/tests/res-dump
	tests/pod/res_search_test.sh $(B)

test-route: $(POD_TEST_DEPS) $(B)/tests/gai-probe-musl
	tests/pod/route_test.sh $(B)

# Never weaker than the libc replaced (issue 37): ports, the stats file,
# the environment, the allocator, /etc/hosts' memory.
$(B)/tests/fwide-probe: tests/pod/fwide-probe.c
	@mkdir -p $(@D)
	$(CC) $(PROBE_CFLAGS) $< -o $@
$(B)/tests/fwide-probe-musl: tests/pod/fwide-probe.c
	@mkdir -p $(@D)
	$(MUSL_CC) $(PROBE_CFLAGS) $< -o $@
test-hardening: $(POD_TEST_DEPS) $(MUSL_PROBE) $(B)/tests/gai-probe-musl $(B)/tests/fwide-probe \
    $(B)/tests/fwide-probe-musl
	tests/pod/hardening_test.sh $(B)

test-musl: $(MUSL_STATIC) $(MUSL_PROBE) $(PRELOAD_DEPS) $(B)/tests/gai-probe-musl \
    $(SERVER_BIN)
	tests/musl/static_test.sh $(B)
	tests/musl/musl_diff_test.sh $(B)
