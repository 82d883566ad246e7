# The pod-sandbox harness: gai-probe built against each libc, and its test.

PROBE_CFLAGS := -std=c11 -O2 -g -Wall -Wextra
ALL += $(GAI_PROBES)

$(B)/tests/gai-probe-glibc: tests/pod/gai-probe.c
	@mkdir -p $(@D)
	gcc $(PROBE_CFLAGS) $< -o $@
$(B)/tests/gai-probe-musl: tests/pod/gai-probe.c
	@mkdir -p $(@D)
	musl-gcc $(PROBE_CFLAGS) $< -o $@
$(B)/tests/gai-probe-musl-static: tests/pod/gai-probe.c
	@mkdir -p $(@D)
	musl-gcc -static $(PROBE_CFLAGS) $< -o $@

TESTS += test-pod-harness
.PHONY: test-pod-harness
test-pod-harness: $(GAI_PROBES)
	tests/pod/harness_test.sh $(B)/tests
