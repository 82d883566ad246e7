// SPDX-License-Identifier: Apache-2.0
// lookup-bench: lookups per second of one NAME in one process, as Google
// Benchmark's items_per_second.
//
//   lookup-bench [--benchmark_...] NAME
//
// One iteration is getaddrinfo(NAME) with AF_UNSPEC, socktype 0 and no flags
// (gai-probe's lookup without options), then freeaddrinfo. Timed on the wall
// clock: a lookup mostly waits for the server's reply, which CPU time misses.
// A failed lookup ends the benchmark with an error; it is not timed.
// Linked against glibc; the shim is measured with LD_PRELOAD. bench.sh runs
// it in a pod, plain and preloaded, and reports the median of its
// repetitions.
#include <netdb.h>
#include <stdio.h>

#include <benchmark/benchmark.h>

static void lookup(benchmark::State& state, const char* name) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  for (auto _ : state) {
    addrinfo* res = nullptr;
    if (int err = getaddrinfo(name, nullptr, &hints, &res)) {
      state.SkipWithError(gai_strerror(err));
      break;
    }
    freeaddrinfo(res);
  }
  state.SetItemsProcessed(state.iterations());
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 2) {
    fputs("usage: lookup-bench [--benchmark_...] NAME\n", stderr);
    return 2;
  }
  benchmark::RegisterBenchmark("getaddrinfo", lookup, argv[1])->UseRealTime();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
