# SPDX-License-Identifier: Apache-2.0
# make images: the init, node and webhook images as OCI archives under
# $(B)/images/ (container/images/build.sh: buildah, offline), and their test.
# Tagged with the library's version, which the manifests and `resolv-k8s
# inject` name; the commit is in the revision label.
IMAGES := $(B)/images/init.tar $(B)/images/node.tar $(B)/images/webhook.tar

$(B)/images/copier: container/images/copier.c include/resolv-k8s.h
	@mkdir -p $(@D)
	musl-gcc -static -Os -Wall -Wextra -Iinclude -o $@ $<

.PHONY: images test-images
images: $(B)/images/copier $(PRELOAD_SO) $(SERVER_BIN) $(TOOL_BIN)
	container/images/build.sh $(B) $(VERSION)

TESTS += test-images
test-images: images $(B)/tests/gai-probe-glibc $(B)/tests/gai-probe-musl
	tests/images/images_test.sh $(B)

# The images under podman (Debian's, with runc): the cache, the webhook and
# application pods it patched, played with `podman kube play`.
TESTS += test-podman
.PHONY: test-podman
test-podman: images $(B)/tests/gai-probe-glibc $(B)/tests/gai-probe-musl
	tests/podman/podman_test.sh $(B)
