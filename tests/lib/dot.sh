# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# A DNS over TLS server for the sandboxes, as Debian ships one: unbound with
# tls-service-key, and a throwaway CA. Shared by tests/node/tls_test.sh,
# tests/container/chart_test.sh and tests/bench/node_bench.sh; source it.
#
#   dot_certs DIR          in DIR: a CA (ca.pem, ca.key) and certificates for
#                          dns.test, each NAME.pem and NAME.key: good (signed
#                          by the CA), expired (signed by it, 2020) and
#                          untrusted (self-signed); false if openssl made none
#   dot_unbound_conf DIR NAME CERT ADDR...
#                          DIR/NAME.conf: unbound serving DoT on each ADDR,
#                          port 853, with DIR/CERT.pem and its key, logging
#                          to DIR/NAME.log (each query), one thread; the
#                          caller appends its forward-zone clauses

dot_certs() {
	local dir=$1 f
	(
		cd "$dir" || exit 1
		cat > ca.cnf <<-END
			[ca]
			default_ca = test
			[test]
			database = index.txt
			new_certs_dir = .
			serial = serial
			default_md = sha256
			policy = any
			[any]
			commonName = supplied
		END
		: > index.txt
		echo 01 > serial
		printf 'subjectAltName = DNS:dns.test\n' > san.ext
		key() { openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1.key" -subj /CN=dns.test "${@:2}" 2>/dev/null; }
		key ca -x509 -days 2 -subj /CN=test-ca -out ca.pem
		key good -out good.csr
		openssl x509 -req -in good.csr -CA ca.pem -CAkey ca.key -days 2 -extfile san.ext -out good.pem 2>/dev/null
		key expired -out expired.csr
		openssl ca -config ca.cnf -batch -cert ca.pem -keyfile ca.key -in expired.csr -out expired.pem \
			-startdate 20200101000000Z -enddate 20200102000000Z -extfile san.ext 2>/dev/null
		key untrusted -x509 -days 2 -addext 'subjectAltName = DNS:dns.test' -out untrusted.pem
	)
	for f in ca good expired untrusted; do
		[[ -s $dir/$f.pem ]] || { echo "dot_certs: openssl made no $f.pem" >&2; return 1; }
	done
}

dot_unbound_conf() {
	local dir=$1 name=$2 cert=$3
	shift 3
	{
		printf 'server:\n'
		printf '  interface: %s@853\n' "$@"
		cat <<-END
			  tls-port: 853
			  tls-service-key: "$dir/$cert.key"
			  tls-service-pem: "$dir/$cert.pem"
			  access-control: 0.0.0.0/0 allow
			  chroot: ""
			  username: ""
			  directory: "$dir"
			  pidfile: "$dir/$name.pid"
			  use-syslog: no
			  logfile: "$dir/$name.log"
			  log-queries: yes
			  num-threads: 1
			  do-not-query-localhost: no
			  module-config: "iterator"
			  unblock-lan-zones: yes
			  insecure-lan-zones: yes
		END
	} > "$dir/$name.conf"
}
