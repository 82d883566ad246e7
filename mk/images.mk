# SPDX-License-Identifier: Apache-2.0
# make images: the init, node and webhook images as OCI archives under
# $(B)/images/ (container/images/build.sh: buildah, offline), and their test.
# Tagged with the library's version, which the manifests and `resolv-k8s
# inject` name; the commit is in the revision label. Each archive is an
# index of an image per arch of ARCHES (amd64 and arm64 by default): the
# arm64 files are built by a make of their own, ARCH=arm64 in $(ARM64)
# (the sources of c-ares and mimalloc fetched once, here).
IMAGES := $(B)/images/init.tar $(B)/images/node.tar $(B)/images/webhook.tar
ARM64 := $(B)/arm64
ARM64_MAKE := $(MAKE) --no-print-directory ARCH=arm64 B=$(ARM64) TP_SRC=$(TP_SRC)

# What an image holds, of this ARCH, and what each program was linked from
# ($(LINK_TRACE)); a program linked before make kept that is linked again.
.PHONY: images image-files test-images
IMAGE_PROGRAMS := $(B)/images/copier $(PRELOAD_SO) $(SERVER_BIN) $(TOOL_BIN) $(TOOL_STATIC)
image-files: $(IMAGE_PROGRAMS) $(IMAGE_PROGRAMS:=.inputs)
$(IMAGE_PROGRAMS:=.inputs): %.inputs: %
	@[[ -s $@ ]] || { rm -f $<; $(MAKE) --no-print-directory $<; }
# `make push` alone builds amd64 alone; ARCHES given, what it names.
ifeq ($(filter command line environment,$(origin ARCHES)),)
push: ARCHES := amd64
endif
ARCHES ?= amd64 arm64
images: image-files
	$(if $(filter arm64,$(ARCHES)),+$(ARM64_MAKE) image-files)
	ARCHES="$(ARCHES)" container/images/build.sh $(B) $(VERSION)

# The quick start (docs/quick-start.md): `make push REGISTRY=...` builds
# the images (amd64 alone unless ARCHES says more), pushes them (tagged
# VERSION-HASH, HASH of the image's digest, unless TAG says otherwise), and
# writes the overlays that deploy them by digest, in $(B)/deploy, and the
# chart's values beside them ($(B)/deploy/values.yaml); `make overlays`
# those alone (by digest if the images are built, by TAG else). The settings (KUBE_DNS, CACHE_ON_KUBE_DNS, NODE_SEARCH,
# STUB_DOMAINS, CLUSTER_DNS, CLUSTER_DOMAIN) and CERT_MANAGER as
# container/overlays.sh reads them.
.PHONY: push overlays
ifneq ($(filter push overlays,$(MAKECMDGOALS)),)
ifeq ($(REGISTRY),)
$(error make $(filter push overlays,$(MAKECMDGOALS)): give REGISTRY=host[:port]/path)
endif
endif
OVERLAYS = KUBE_DNS='$(KUBE_DNS)' CACHE_ON_KUBE_DNS='$(CACHE_ON_KUBE_DNS)' NODE_SEARCH='$(NODE_SEARCH)' \
  STUB_DOMAINS='$(STUB_DOMAINS)' CLUSTER_DNS='$(CLUSTER_DNS)' CLUSTER_DOMAIN='$(CLUSTER_DOMAIN)' \
  CERT_MANAGER='$(CERT_MANAGER)' container/overlays.sh $(B)/deploy $(REGISTRY) $(TAG)
push: images
	container/images/push.sh $(B) $(REGISTRY) $(TAG)
	IMAGES=$(B)/images $(OVERLAYS)
overlays:
	$(if $(wildcard $(IMAGES)),IMAGES=$(B)/images) $(OVERLAYS)

TESTS += test-images
test-images: images $(B)/tests/gai-probe-glibc $(B)/tests/gai-probe-musl
	tests/images/images_test.sh $(B)

# The images under podman (Debian's, with runc): the cache, the webhook and
# application pods it patched, played with `podman kube play`.
TESTS += test-podman
.PHONY: test-podman
test-podman: images $(B)/tests/gai-probe-glibc $(B)/tests/gai-probe-musl $(B)/bin/kubectl $(B)/bin/helm
	tests/podman/podman_test.sh $(B)

# The arm64 images under qemu-user (tests/images/arm64_test.sh), with arm64
# gai-probes of the arm64 make (one linked with the static archive).
TESTS += test-arm64
.PHONY: test-arm64
test-arm64: images
	+$(ARM64_MAKE) $(ARM64)/tests/gai-probe-glibc $(ARM64)/tests/gai-probe-musl $(ARM64)/tests/gai-probe-musl-rk8s
	tests/images/arm64_test.sh $(B)
