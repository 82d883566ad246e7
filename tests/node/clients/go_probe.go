// SPDX-License-Identifier: Apache-2.0
// go-probe NAME...: Go's own resolver (built with CGO_ENABLED=0), one line
// per name: the canonical name and the addresses sorted, or the error's
// class. The search walk is Go's (src/net/dnsclient_unix.go).
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
)

func main() {
	r := &net.Resolver{PreferGo: true}
	for _, name := range os.Args[1:] {
		addrs, err := r.LookupIPAddr(context.Background(), name)
		if err != nil {
			var dnsErr *net.DNSError
			switch {
			case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
				fmt.Printf("%s: not found\n", name)
			case errors.As(err, &dnsErr) && dnsErr.IsTemporary:
				fmt.Printf("%s: temporary\n", name)
			default:
				fmt.Printf("%s: error\n", name)
			}
			continue
		}
		var out []string
		for _, a := range addrs {
			out = append(out, a.IP.String())
		}
		sort.Strings(out)
		fmt.Printf("%s: %v\n", name, out)
	}
}
