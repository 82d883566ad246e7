# SPDX-License-Identifier: Apache-2.0
# `make test-sanitize`: the core unit tests and the glibc differential pod
# test (the preload library under ASan+UBSan) and the transport's threaded
# tests under TSan, each built in a directory of its own under $(B); valgrind
# (memcheck, helgrind) on the preload path.

SAN_ASAN := g++ -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_TSAN := g++ -fsanitize=thread
SAN_DIRS := $(B)/asan $(B)/tsan

.PHONY: test-sanitize test-asan test-asan-pod test-tsan test-valgrind
test-sanitize: test-asan test-asan-pod test-tsan test-valgrind

# The sanitizer builds share $(B)'s c-ares and mimalloc.
$(SAN_DIRS):
	mkdir -p $@ && ln -sfn $(abspath $(B)/third_party) $@/third_party

test-asan: | $(B)/asan
	$(MAKE) --no-print-directory B=$(B)/asan CXX="$(SAN_ASAN)" $(B)/asan/tests/core-tests
	$(B)/asan/tests/core-tests --gtest_brief=1

# ASan's runtime must come first in the process: it is preloaded before us.
test-asan-pod: $(POD_TEST_DEPS) | $(B)/asan
	$(MAKE) --no-print-directory B=$(B)/asan CXX="$(SAN_ASAN)" CC="gcc -fsanitize=address,undefined" \
	  $(B)/asan/glibc/libresolv-k8s.so
	ASAN_OPTIONS=detect_leaks=0 \
	  POD_SHIM="$$(gcc -print-file-name=libasan.so) $(abspath $(B)/asan/glibc/libresolv-k8s.so)" \
	  tests/pod/glibc_diff_test.sh $(B)

test-tsan: | $(B)/tsan
	$(MAKE) --no-print-directory B=$(B)/tsan CXX="$(SAN_TSAN)" $(B)/tsan/tests/transport-tests
	unshare --net sh -c 'ip link set lo up && TSAN_OPTIONS=halt_on_error=1 exec $(B)/tsan/tests/transport-tests --gtest_brief=1'

test-valgrind: $(B)/tests/lookup-storm $(B)/tests/gai-probe-glibc $(B)/glibc/libresolv-k8s.so $(SERVER_BIN)
	tests/faults/valgrind_test.sh $(B)
