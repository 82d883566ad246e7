# SPDX-License-Identifier: Apache-2.0
# Fault tests: the glibc shim against plain glibc under dead, silent and
# hostile servers, descriptor limits, files changing mid-run, interruptions,
# threads and fork. One script per family: `make test-faults-FAMILY`.

FAULT_FAMILIES := failing-servers files descriptors interruptions abandon hostile threads
FAULT_TESTS := $(FAULT_FAMILIES:%=test-faults-%)

$(B)/tests/lookup-storm $(B)/tests/gai-conf-fork: $(B)/tests/%: tests/faults/%.c tests/faults/lookup-outcome.h
	@mkdir -p $(@D)
	gcc -std=c11 -O2 -g -Wall -Wextra -pthread $< -o $@
$(B)/tests/abandon: tests/faults/abandon.c tests/faults/lookup-outcome.h
	@mkdir -p $(@D)
	gcc -std=c11 -O2 -g -Wall -Wextra -pthread $< -o $@ -lresolv

TESTS += test-faults
.PHONY: test-faults $(FAULT_TESTS)
test-faults: $(FAULT_TESTS)
$(FAULT_TESTS): test-faults-%: $(B)/tests/lookup-storm $(B)/tests/gai-conf-fork $(B)/tests/abandon $(B)/tests/gai-probe-glibc \
    $(B)/glibc/libresolv-k8s.so $(SERVER_BIN)
	tests/faults/$(subst -,_,$*)_test.sh $(B)
