# SPDX-License-Identifier: Apache-2.0
# The real libcs as oracles, each case in a sandbox: glibc's res_init()
# against parse_conf(glibc) on tests/conf-oracle/fixtures; glibc's and
# musl's getaddrinfo against ours (results/ and the hosts parser) on
# tests/addrinfo-oracle/cases.

CO := $(B)/tests/conf-oracle
$(CO)/glibc-res: tests/conf-oracle/glibc_res.c tests/conf-oracle/glibc_state.c tests/conf-oracle/glibc_state.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -o $@ $(filter %.c,$^)
$(CO)/conf-print: $(B)/obj/host/tests/conf-oracle/conf_print.o $(B)/obj/host/tests/conf-oracle/conf_text.o $(CORE_A)
	$(CXX) -o $@ $^

AO := $(B)/tests/addrinfo-oracle
AO_CASES := tests/addrinfo-oracle/libc_gai.c tests/addrinfo-oracle/cases.c
$(AO)/glibc-gai: $(AO_CASES) tests/addrinfo-oracle/cases.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -o $@ $(AO_CASES)
$(AO)/musl-gai: $(AO_CASES) tests/addrinfo-oracle/cases.h
	@mkdir -p $(@D)
	musl-gcc -static -O2 -Wall -Wextra -o $@ $(AO_CASES)
$(AO)/cases.o: tests/addrinfo-oracle/cases.c tests/addrinfo-oracle/cases.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -c -o $@ $<
# Only the objects the oracle calls come out of the archive: no c-ares.
$(AO)/ours-gai: $(B)/obj/host/tests/addrinfo-oracle/ours_gai.o $(AO)/cases.o $(CORE_A)
	$(CXX) -o $@ $^

TESTS += test-conf-oracle test-addrinfo-oracle
.PHONY: test-conf-oracle test-addrinfo-oracle
test-conf-oracle: $(CO)/glibc-res $(CO)/conf-print
	tests/conf-oracle/run.sh $^ tests/conf-oracle/fixtures

test-addrinfo-oracle: $(AO)/glibc-gai $(AO)/musl-gai $(AO)/ours-gai
	tests/addrinfo-oracle/run.sh $^ $(AO)/out
