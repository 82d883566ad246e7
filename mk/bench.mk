# SPDX-License-Identifier: Apache-2.0
# `make bench`: the numbers of docs/benchmarks.md (README's "Numbers" sums them up), measured in one
# run (tests/bench/bench.sh), then the node benchmark (`make bench-node`,
# mk/bench-node.mk); writes $(B)/bench.md and $(B)/bench-node.md. Not part of
# `make test`.

# lookup-bench: Google Benchmark over getaddrinfo (tests/bench/lookup_bench.cc).
$(B)/tests/lookup-bench: $(B)/obj/host/tests/bench/lookup_bench.o
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ -lbenchmark

.PHONY: bench
bench: $(B)/tests/lookup-storm $(B)/tests/lookup-bench $(GAI_PROBES) $(PRELOAD_DEPS) $(SERVER_BIN)
	tests/bench/bench.sh $(B)
	$(MAKE) --no-print-directory bench-node
