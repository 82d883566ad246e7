#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# kube-proxy-nftables.sh NAMESPACE/SERVICE CLUSTER_IP ENDPOINT PROTO/PORT_NAME/PORT...:
# prints the nftables transaction kube-proxy's nftables mode (Kubernetes
# 1.31 to 1.33, pkg/proxy/nftables/proxier.go) writes for a node with that
# one Service, each port of it served by ENDPOINT on the same port: its
# table `ip kube-proxy` (its sets and verdict maps, the base chains at
# kube-proxy's priorities, the checks for new connections) and the Service's
# chains, named as kube-proxy names them (the first 8 base32 characters of
# the SHA-256 of the name before it). The cluster's pods are 10.0.0.0/8,
# its Services 10.96.0.0/12, the node 10.0.0.1. For `nft -f -`.
set -euo pipefail
service=${1:?usage: kube-proxy-nftables.sh NS/SVC CLUSTER_IP ENDPOINT PROTO/PORT_NAME/PORT...}
ip=$2 endpoint=$3
shift 3
t='ip kube-proxy'
hashed() { python3 -c 'import base64, hashlib, sys
print(base64.b32encode(hashlib.sha256(sys.argv[1].encode()).digest())[:8].decode() + "-" + sys.argv[1])' "$1"; }

cat <<END
add table $t { comment "rules for kube-proxy" ; }
add set $t cluster-ips { type ipv4_addr ; comment "Active ClusterIPs" ; }
add set $t nodeport-ips { type ipv4_addr ; comment "IPs that accept NodePort traffic" ; }
add map $t firewall-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "destinations that are subject to LoadBalancerSourceRanges" ; }
add map $t no-endpoint-nodeports { type inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to service nodeports with no endpoints" ; }
add map $t no-endpoint-services { type ipv4_addr . inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to services with no endpoints" ; }
add map $t service-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "ClusterIP, ExternalIP and LoadBalancer IP traffic" ; }
add map $t service-nodeports { type inet_proto . inet_service : verdict ; comment "NodePort traffic" ; }
add chain $t cluster-ips-check
add chain $t filter-prerouting-pre-dnat { type filter hook prerouting priority -110 ; }
add chain $t filter-output-pre-dnat { type filter hook output priority -110 ; }
add chain $t filter-forward { type filter hook forward priority 0 ; }
add chain $t filter-input { type filter hook input priority 0 ; }
add chain $t filter-output { type filter hook output priority 0 ; }
add chain $t firewall-check
add chain $t mark-for-masquerade
add chain $t masquerading
add chain $t nat-output { type nat hook output priority -100 ; }
add chain $t nat-postrouting { type nat hook postrouting priority 100 ; }
add chain $t nat-prerouting { type nat hook prerouting priority -100 ; }
add chain $t nodeport-endpoints-check
add chain $t reject-chain { comment "helper for @no-endpoint-services / @no-endpoint-nodeports" ; }
add chain $t services
add chain $t service-endpoints-check
add rule $t cluster-ips-check ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"
add rule $t cluster-ips-check ip daddr { 10.96.0.0/12 } drop comment "Drop traffic to unallocated ClusterIPs"
add rule $t filter-prerouting-pre-dnat ct state new jump firewall-check
add rule $t filter-forward ct state new jump service-endpoints-check
add rule $t filter-forward ct state new jump cluster-ips-check
add rule $t filter-input ct state new jump nodeport-endpoints-check
add rule $t filter-input ct state new jump service-endpoints-check
add rule $t filter-output ct state new jump service-endpoints-check
add rule $t filter-output-pre-dnat ct state new jump firewall-check
add rule $t filter-output ct state new jump cluster-ips-check
add rule $t firewall-check ip daddr . meta l4proto . th dport vmap @firewall-ips
add rule $t mark-for-masquerade mark set mark or 0x4000
add rule $t masquerading mark and 0x4000 == 0 return
add rule $t masquerading mark set mark xor 0x4000
add rule $t masquerading masquerade fully-random
add rule $t nat-output jump services
add rule $t nat-postrouting jump masquerading
add rule $t nat-prerouting jump services
add rule $t nodeport-endpoints-check ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports
add rule $t reject-chain reject
add rule $t services ip daddr . meta l4proto . th dport vmap @service-ips
add rule $t services ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports
add element $t nodeport-ips { 10.0.0.1 }
add rule $t service-endpoints-check ip daddr . meta l4proto . th dport vmap @no-endpoint-services
END
for port in "$@"; do
	IFS=/ read -r proto name number <<<"$port"
	chain=service-$(hashed "$service/$proto/$name")
	ep=endpoint-$(hashed "$service/$proto/${name}__$endpoint/$number")
	cat <<-END
		add chain $t $chain
		add chain $t $ep
		add rule $t $ep ip saddr $endpoint jump mark-for-masquerade
		add rule $t $ep meta l4proto $proto dnat to $endpoint:$number
		add rule $t $chain ip daddr $ip ip saddr != 10.0.0.0/8 jump mark-for-masquerade
		add rule $t $chain numgen random mod 1 vmap { 0 : goto $ep }
		add element $t cluster-ips { $ip }
		add element $t service-ips { $ip . $proto . $number : goto $chain }
	END
done
