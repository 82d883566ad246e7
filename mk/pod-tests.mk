# Pod tests of the glibc shim: differential against glibc, autopath, real
# programs. Each starts resolv-k8s-server in pod sandboxes (needs root).

POD_TEST_DEPS := $(B)/glibc/libresolv-k8s.so $(B)/bin/resolv-k8s-server $(B)/tests/gai-probe-glibc

TESTS += test-glibc-diff test-glibc-autopath test-programs
.PHONY: test-glibc-diff test-glibc-autopath test-programs

# PATTERN=... runs only the cases whose line holds it.
test-glibc-diff: $(POD_TEST_DEPS)
	tests/pod/glibc_diff_test.sh $(B) $(PATTERN)

test-glibc-autopath: $(POD_TEST_DEPS)
	tests/pod/glibc_autopath_test.sh $(B)

test-programs: $(POD_TEST_DEPS)
	tests/pod/programs_test.sh $(B)
