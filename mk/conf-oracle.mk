# test-conf-oracle: glibc's own res_init() against parse_conf(glibc), fixture
# by fixture, each in a sandbox with the fixture over /etc/resolv.conf.

$(B)/tests/conf-oracle/glibc-res: tests/conf-oracle/glibc_res.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -o $@ $<

$(B)/tests/conf-oracle/conf-print: $(B)/obj/host/tests/conf-oracle/conf_print.o $(B)/glibc/libresolv-k8s-core.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $^

.PHONY: test-conf-oracle
test-conf-oracle: $(B)/tests/conf-oracle/glibc-res $(B)/tests/conf-oracle/conf-print
	tests/conf-oracle/run.sh $^ tests/conf-oracle/fixtures

TESTS += test-conf-oracle
