# `make bench`: the numbers of README's "Numbers" section, measured in one
# run (tests/bench/bench.sh); writes $(B)/bench.md. Not part of `make test`.

.PHONY: bench
bench: $(B)/tests/lookup-storm $(GAI_PROBES) $(PRELOAD_SO) $(SERVER_BIN)
	tests/bench/bench.sh $(B)
