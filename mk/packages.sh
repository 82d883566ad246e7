#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# packages.sh [build]: installs the Debian packages the project needs, only
# those missing: with `build`, what the build and `make demo` need alone
# (the compilers, the libraries, the sandbox's tools); without, those and
# everything the tests, the images and the benchmarks run.
set -euo pipefail

build=(
	g++ make cmake pkg-config binutils musl-tools musl-dev dpkg-dev
	libyaml-cpp-dev libjsoncpp-dev libevent-dev libssl-dev libnl-route-3-dev libnftables-dev libcap-ng-dev
	iproute2 util-linux python3
)
packages=(
	"${build[@]}"
	clang libclang-rt-14-dev file
	libgtest-dev libbenchmark-dev valgrind
	dnsutils dnsperf unbound curl buildah skopeo umoci podman runc nftables
	# the node tests: conntrack's table read, NodeLocal's iptables rules
	conntrack iptables
	# podman's pause container runs catatonit, which podman only Recommends;
	# test-podman pushes the images to a registry of its own (the quick start).
	catatonit docker-registry
	python3-yaml python3-jsonpatch openssl nodejs default-jre-headless
	python3-dnspython ruby golang-go
	# a webhook replica whose clock runs ahead (tests/webhook/certificates_test.sh)
	faketime
	# arm64 (the images' second arch): Debian's cross compilers, arm64
	# libraries beside the amd64 ones (multiarch), qemu to run them.
	# libyaml-cpp-dev and libevent-dev are not Multi-Arch: same: the amd64
	# ones' headers serve, with the arm64 runtime libraries.
	gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static
	libc6:arm64 libc6-dev:arm64 musl-dev:arm64 libjsoncpp-dev:arm64 libssl-dev:arm64
	libnl-route-3-dev:arm64 libnftables-dev:arm64 libcap-ng-dev:arm64 libyaml-cpp0.7:arm64
	libevent-2.1-7:arm64 libevent-pthreads-2.1-7:arm64 libevent-openssl-2.1-7:arm64
)
# npm installs the schema checker and the kubectl that renders the
# kustomizations (mk/container.mk): a machine may have its own npm, which
# Debian's package would clash with.
command -v npm >/dev/null || packages+=(npm)
# What the build, the tests and the demo run, and the helpers the container
# tools exec: a package installed without one (a recommend left out) fails
# here, by name, not in the middle of a test.
programs=(
	g++ gcc make cmake pkg-config nm objdump readelf musl-gcc dpkg-source ip unshare nsenter python3 getent
)
if [[ ${1:-} == build ]]; then
	packages=("${build[@]}")
else
	programs+=(
		file clang++ aarch64-linux-gnu-g++ aarch64-linux-musl-gcc qemu-aarch64-static
		valgrind dig dnsperf unbound curl nft conntrack iptables
		buildah skopeo umoci podman runc conmon catatonit docker-registry
		openssl node npm java ruby go faketime
	)
fi

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
	[[ ${1:-} == build ]] || dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
	apt-get update -qq
	apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "${missing[@]}" >/dev/null
fi

absent=()
for p in "${programs[@]}"; do
	command -v "$p" >/dev/null || absent+=("$p")
done
if ((${#absent[@]})); then
	echo "deps: installed, yet missing: ${absent[*]}" >&2
	exit 1
fi
