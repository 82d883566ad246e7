#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages the project needs, only those missing.
set -euo pipefail

packages=(
	g++ clang libclang-rt-14-dev make cmake pkg-config binutils file
	musl-tools musl-dev
	libgtest-dev libbenchmark-dev valgrind libyaml-cpp-dev libjsoncpp-dev libevent-dev libssl-dev
	libnl-route-3-dev libnftables-dev libcap-ng-dev
	dnsutils dnsperf unbound iproute2 util-linux curl buildah skopeo umoci podman runc nftables
	# podman's pause container runs catatonit, which podman only Recommends;
	# test-podman pushes the images to a registry of its own (the quick start).
	catatonit docker-registry
	dpkg-dev
	python3 python3-yaml python3-jsonpatch openssl nodejs default-jre-headless
	python3-dnspython ruby golang-go
	# arm64 (the images' second arch): Debian's cross compilers, arm64
	# libraries beside the amd64 ones (multiarch), qemu to run them.
	# libyaml-cpp-dev and libevent-dev are not Multi-Arch: same: the amd64
	# ones' headers serve, with the arm64 runtime libraries.
	gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static
	libc6:arm64 libc6-dev:arm64 musl-dev:arm64 libjsoncpp-dev:arm64 libssl-dev:arm64
	libnl-route-3-dev:arm64 libnftables-dev:arm64 libcap-ng-dev:arm64 libyaml-cpp0.7:arm64
	libevent-2.1-7:arm64 libevent-pthreads-2.1-7:arm64 libevent-openssl-2.1-7:arm64
)
# kubectl renders the kustomizations (test-container) and npm installs the
# schema checker: a machine may have its own of each, which Debian's
# packages would clash with (Debian's kubectl 1.20 has kustomize 2.0, enough).
command -v kubectl >/dev/null || packages+=(kubernetes-client)
command -v npm >/dev/null || packages+=(npm)

# dpkg-query fails on names it has never seen: those are missing too. It
# names a Multi-Arch: same package of the machine's arch with its arch.
native=$(dpkg --print-architecture)
installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' "${packages[@]}" 2>/dev/null || true)
installed=$(sed -n "/^ii /{s/^ii  *//; s/:$native\$//; p}" <<<"$installed")
missing=()
for p in "${packages[@]}"; do
	grep -qx -- "$p" <<<"$installed" || missing+=("$p")
done

if ((${#missing[@]})); then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Serialises concurrent "make deps" runs (several build directories).
	exec 9>/run/lock/libresolv-k8s-apt
	flock 9
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
	apt-get update -qq
	apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "${missing[@]}" >/dev/null
fi

# What the build, the tests and the demo run, and the helpers the container
# tools exec: a package installed without one (a recommend left out) fails
# here, by name, not in the middle of a test.
programs=(
	g++ gcc clang++ make cmake pkg-config nm objdump readelf file musl-gcc dpkg-source
	aarch64-linux-gnu-g++ aarch64-linux-musl-gcc qemu-aarch64-static
	valgrind dig dnsperf unbound ip unshare nsenter curl nft
	buildah skopeo umoci podman runc conmon catatonit docker-registry
	python3 openssl node npm java ruby go kubectl getent
)
absent=()
for p in "${programs[@]}"; do
	command -v "$p" >/dev/null || absent+=("$p")
done
if ((${#absent[@]})); then
	echo "deps: installed, yet missing: ${absent[*]}" >&2
	exit 1
fi
