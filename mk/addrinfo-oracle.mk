# test-addrinfo-oracle: the real glibc and musl getaddrinfo against ours
# (addrinfo.h + hosts.h) on tests/addrinfo-oracle/cases, in a sandbox.

AO := $(B)/tests/addrinfo-oracle

$(AO)/glibc-gai: tests/addrinfo-oracle/libc_gai.c tests/addrinfo-oracle/cases.c tests/addrinfo-oracle/cases.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -o $@ $(filter %.c,$^)

$(AO)/musl-gai: tests/addrinfo-oracle/libc_gai.c tests/addrinfo-oracle/cases.c tests/addrinfo-oracle/cases.h
	@mkdir -p $(@D)
	musl-gcc -static -O2 -Wall -Wextra -o $@ $(filter %.c,$^)

$(AO)/cases.o: tests/addrinfo-oracle/cases.c tests/addrinfo-oracle/cases.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -c -o $@ $<

# Only the units under test, so the oracle needs no third-party build.
AO_CORE := addrinfo sort gaiconf hosts conf_addr
$(AO)/ours-gai: $(B)/obj/host/tests/addrinfo-oracle/ours_gai.o $(AO)/cases.o \
    $(AO_CORE:%=$(B)/obj/glibc/libresolv-k8s/%.o)
	$(CXX) -o $@ $^

.PHONY: test-addrinfo-oracle
test-addrinfo-oracle: $(AO)/glibc-gai $(AO)/musl-gai $(AO)/ours-gai
	tests/addrinfo-oracle/run.sh $^ $(AO)/out

TESTS += test-addrinfo-oracle
