# make bench-node: the node-local cache against unbound (tests/bench/node_bench.sh).
