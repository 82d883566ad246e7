# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# own_etc: this mount namespace's /etc made writable as an overlay whose
# upper layer lives in a tmpfs mounted only while the overlay is being
# made, so nothing written there reaches the host's disk. Needs root and a
# mount namespace of the caller's own.
own_etc() {
	mount -t tmpfs own-etc /tmp
	mkdir /tmp/upper /tmp/work
	mount -t overlay own-etc -o lowerdir=/etc,upperdir=/tmp/upper,workdir=/tmp/work /etc
	umount -l /tmp
}
