# gethostbyname and its siblings against the real glibc and musl, in pod
# sandboxes (needs root).

TESTS += test-hostent
.PHONY: test-hostent
test-hostent: $(PRELOAD_SO) $(B)/bin/resolv-k8s-server $(B)/tests/gai-probe-glibc \
    $(B)/tests/gai-probe-musl
	tests/pod/hostent_test.sh $(B)
