#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# harness_test.sh PROBE_DIR: proves tests/pod/sandbox.sh and the three
# gai-probes in PROBE_DIR. Needs root; sends packets on loopback only.
set -u
sandbox=$(cd "$(dirname "$0")" && pwd)/sandbox.sh
probes=$(cd "${1:?usage: harness_test.sh PROBE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../lib/assert.sh"

cat > "$work/hosts" <<'EOF'
127.0.0.10	web.pod.test web
::1	v6.pod.test
127.0.0.11	MixedCase.Pod.Test
EOF
cat > "$work/resolv.conf" <<'EOF'
nameserver 127.0.0.53
search pod.test
options ndots:1 timeout:1 attempts:1
EOF
echo 'hosts: files dns' > "$work/nsswitch.conf"
pod=("$sandbox" --hosts "$work/hosts" --resolv "$work/resolv.conf" --nsswitch "$work/nsswitch.conf" --)

# Answers every query NXDOMAIN and logs "qname qtype" to $1.
cat > "$work/nxdomain.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.53", 53))
open(sys.argv[1] + ".ready", "w").close()
log = open(sys.argv[1], "a", buffering=1)
while True:
    q, peer = s.recvfrom(512)
    i, labels = 12, []
    while q[i]:
        labels.append(q[i + 1:i + 1 + q[i]].decode())
        i += 1 + q[i]
    log.write("%s %d\n" % (".".join(labels), int.from_bytes(q[i + 1:i + 3], "big")))
    s.sendto(q[:2] + bytes([0x80 | (q[2] & 1), 0x83]) + q[4:6] + bytes(6) + q[12:i + 5], peer)
EOF

host_state() { sha256sum /etc/hosts /etc/resolv.conf /etc/nsswitch.conf; findmnt -rn | sort; }
before=$(host_state)

for libc in glibc musl musl-static; do
	probe=$probes/gai-probe-$libc
	# musl sets ai_canonname on every result, asked for or not.
	canon() { [[ $libc == glibc ]] || echo " canon=$1"; }
	check "$libc: names from the bind-mounted /etc/hosts" \
"web.pod.test: inet stream 6 127.0.0.10 0$(canon web.pod.test)
web: inet stream 6 127.0.0.10 0$(canon web.pod.test)
v6.pod.test: inet6 stream 6 ::1 0$(canon v6.pod.test)
MixedCase.Pod.Test: inet stream 6 127.0.0.11 0$(canon MixedCase.Pod.Test)" \
		"$("${pod[@]}" "$probe" -t stream web.pod.test web v6.pod.test MixedCase.Pod.Test 2>&1)"

	# The search domain exists only in our resolv.conf: seeing it queried
	# proves the probe's process read that file.
	check "$libc: queries follow the bind-mounted resolv.conf" \
"nohost: error EAI_NONAME
nohost 1
nohost 28
nohost.pod.test 1
nohost.pod.test 28" \
		"$("${pod[@]}" bash -c '/usr/bin/python3 "$1" "$2" & until [[ -e $2.ready ]]; do sleep 0.05; done
			"$3" -t stream nohost; sort -u "$2"' - "$work/nxdomain.py" "$work/$libc.log" "$probe" 2>&1)"
done

# glibc's files backend compares with strcasecmp, musl's name_from_hosts
# with strstr: only glibc finds a name whose case differs from /etc/hosts.
case_test() {
	"${pod[@]}" bash -c '/usr/bin/python3 "$1" "$2" & until [[ -e $2.ready ]]; do sleep 0.05; done
		"$3" -f inet -t stream mixedcase.pod.test' - "$work/nxdomain.py" "$work/case-$1.log" "$probes/gai-probe-$1" 2>&1
}
check "glibc: /etc/hosts matched case-insensitively" \
	"mixedcase.pod.test: inet stream 6 127.0.0.11 0" "$(case_test glibc)"
check "musl: /etc/hosts matched case-sensitively" "mixedcase.pod.test: error EAI_NONAME" "$(case_test musl)"
check "musl-static: /etc/hosts matched case-sensitively" \
	"mixedcase.pod.test: error EAI_NONAME" "$(case_test musl-static)"

check "only loopback, 127.0.0.0/8 and ::1 usable" "lo 127.0.0.1 127.9.9.9 ::1" "$("${pod[@]}" /usr/bin/python3 -c '
import socket
links = [name for _, name in socket.if_nameindex()]
out = []
for fam, addr in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET, "127.9.9.9"), (socket.AF_INET6, "::1")):
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind((addr, 0))
    s.sendto(b"x", s.getsockname())
    if s.recv(1) == b"x": out.append(addr)
print(" ".join(links + out))' 2>&1)"

check "bind mounts are read-only" "read-only" \
	"$("${pod[@]}" bash -c 'echo x >> /etc/hosts' 2>/dev/null || echo read-only)"

mkdir "$work/cwd"
check "relative paths against the caller's cwd" "$(cat "$work/hosts")" \
	"$(cd "$work/cwd" && "$sandbox" --hosts ../hosts -- cat /etc/hosts 2>&1)"

"$sandbox" -- bash -c 'exit 7'
check "exit status is CMD's" 7 $?

marker=harness-test-$$-orphan
"$sandbox" -- bash -c "(exec -a $marker sleep 1000) & sleep 0.2"
check "processes left behind are killed" "" "$(pgrep -f "$marker")"

# A file /etc lacks: hide /etc/gai.conf behind an overlay in a private mount
# namespace, then ask the sandbox to mount over it.
echo 'precedence ::ffff:0:0/96 100' > "$work/gai.conf"
check "a missing /etc file gets a placeholder, host unchanged" "precedence ::ffff:0:0/96 100
absent" "$(unshare --mount --propagation private bash -c '
	mount -t tmpfs hide /tmp && mkdir /tmp/u /tmp/w &&
	mount -t overlay hide -o lowerdir=/etc,upperdir=/tmp/u,workdir=/tmp/w /etc && umount -l /tmp &&
	rm -f /etc/gai.conf && "$1" --gai "$2" -- cat /etc/gai.conf
	[[ -e /etc/gai.conf ]] || echo absent' - "$sandbox" "$work/gai.conf" 2>&1)"

mkfifo "$work/fifo"
check "a FIFO mounts over its /etc file" fifo \
	"$("$sandbox" --gai "$work/fifo" -- bash -c '[[ -p /etc/gai.conf ]] && echo fifo' 2>&1)"

check "host /etc and mounts untouched" "$before" "$(host_state)"
summary
