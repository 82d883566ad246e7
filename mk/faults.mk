# Fault tests: the glibc shim against plain glibc under dead, silent and
# hostile servers, descriptor limits, resolv.conf rewrites, threads and fork.

$(B)/tests/lookup-storm: tests/faults/lookup-storm.c
	@mkdir -p $(@D)
	gcc -std=c11 -O2 -g -Wall -Wextra -pthread $< -o $@

TESTS += test-faults
.PHONY: test-faults
test-faults: $(B)/tests/lookup-storm $(B)/tests/gai-probe-glibc $(B)/glibc/libresolv-k8s.so $(SERVER_BIN)
	tests/faults/faults_test.sh $(B)
