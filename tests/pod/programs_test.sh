#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# programs_test.sh BUILD_DIR: real programs resolve the Service hello.apps
# (127.0.0.1, fixtures/programs-cluster.json) from a pod in namespace
# "frontend", so the classic walk finds it at the second search domain.
# Each runs without the shim against an --autopath off server, then with it
# against an --autopath on server. Asserts the same output, holding
# the expected answer, and that the shim's lookups used the option and sent fewer
# queries than glibc's walk.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
export POD_DATA="--cluster $POD_ROOT/tests/pod/fixtures/programs-cluster.json"
pod_init "${1:?usage: programs_test.sh BUILD_DIR}"
printf '%s\n' 'search frontend.svc.cluster.local svc.cluster.local cluster.local' \
	'nameserver 127.0.0.53' 'options ndots:5 timeout:1 attempts:1' > "$WORK/resolv.conf"

# program NAME WANT SCRIPT: SCRIPT runs in bash in the pod and sets
# LD_PRELOAD=$PRELOAD on the program under test only; its output must hold
# the regex WANT.
program() {
	local name=$1 want=$2 script=$3 glibc shim
	PRELOAD='' pod "$WORK/$name.glibc.log" off "$WORK/resolv.conf" -- bash -c "$script" > "$WORK/$name.glibc" 2>&1
	PRELOAD=$SHIM pod "$WORK/$name.shim.log" on "$WORK/resolv.conf" -- bash -c "$script" > "$WORK/$name.shim" 2>&1
	check "$name: same output" "$(< "$WORK/$name.glibc")" "$(< "$WORK/$name.shim")"
	check "$name: output holds /$want/" yes "$(grep -q "$want" "$WORK/$name.shim" && echo yes)" \
		"$(< "$WORK/$name.shim")"
	glibc=$(wc -l < "$WORK/$name.glibc.log") shim=$(wc -l < "$WORK/$name.shim.log")
	check "$name: autopath used, fewer queries" "yes" \
		"$(grep -q 'opt=yes .*autopath=MATCHED' "$WORK/$name.shim.log" && ((shim < glibc)) && echo yes)" \
		"glibc $glibc queries, shim $shim:
$(cut -d' ' -f2- "$WORK/$name.shim.log")"
}
export PRELOAD

program "getent ahosts" '127\.0\.0\.1' 'LD_PRELOAD=$PRELOAD getent ahosts hello.apps'
program "getent hosts" '127\.0\.0\.1' 'LD_PRELOAD=$PRELOAD getent hosts hello.apps'

mkdir "$WORK/www"
echo "hello from the pod" > "$WORK/www/hello.txt"
program curl '^hello from the pod$' "cd $WORK/www && /usr/bin/python3 -m http.server --bind 127.0.0.1 8080 >/dev/null 2>&1 &
	until (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null; do sleep 0.1; done
	LD_PRELOAD=\$PRELOAD curl -sS --max-time 10 http://hello.apps:8080/hello.txt"

program python3 '127\.0\.0\.1' 'LD_PRELOAD=$PRELOAD /usr/bin/python3 -c "
import socket
print(sorted({ai[4][0] for ai in socket.getaddrinfo(\"hello.apps\", 80)}))"'

if command -v node >/dev/null; then
	program node '127\.0\.0\.1' 'LD_PRELOAD=$PRELOAD node -e "
require(\"dns\").lookup(\"hello.apps\", { all: true }, (err, addrs) => console.log(err ? err.code : addrs))"'
else
	skip "node not installed"
fi

if command -v javac >/dev/null; then
	mkdir "$WORK/java"
	cat > "$WORK/java/Lookup.java" <<'EOF'
import java.net.InetAddress;

public class Lookup {
    public static void main(String[] args) throws Exception {
        for (InetAddress a : InetAddress.getAllByName(args[0])) System.out.println(a.getHostAddress());
    }
}
EOF
	javac -d "$WORK/java" "$WORK/java/Lookup.java"
	program java '127\.0\.0\.1' "LD_PRELOAD=\$PRELOAD java -cp $WORK/java Lookup hello.apps"
else
	skip "javac not installed"
fi
summary
