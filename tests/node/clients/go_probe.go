// SPDX-License-Identifier: Apache-2.0
// go-probe [-L] [-i MS] NAME...: Go's own resolver (built with
// CGO_ENABLED=0), one line per name: the canonical name and the addresses
// sorted, or the error's class. The search walk is Go's
// (src/net/dnsclient_unix.go). -L prints each lookup's wall time in
// microseconds on stderr, a line each; -i MS paces the names at a steady
// rate, the k-th starting MS * k milliseconds after the first (at once when
// the one before ran late), as gai-probe -i.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"sort"
	"time"
)

// answer: the line go-probe prints for NAME's lookup.
func answer(r *net.Resolver, name string) string {
	addrs, err := r.LookupIPAddr(context.Background(), name)
	if err != nil {
		var dnsErr *net.DNSError
		switch {
		case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
			return name + ": not found"
		case errors.As(err, &dnsErr) && dnsErr.IsTemporary:
			return name + ": temporary"
		default:
			return name + ": error"
		}
	}
	var out []string
	for _, a := range addrs {
		out = append(out, a.IP.String())
	}
	sort.Strings(out)
	return fmt.Sprintf("%s: %v", name, out)
}

func main() {
	laps := flag.Bool("L", false, "each lookup's microseconds on stderr")
	interval := flag.Int("i", 0, "milliseconds between the lookups' starts")
	flag.Parse()
	r := &net.Resolver{PreferGo: true}
	start := time.Now()
	for k, name := range flag.Args() {
		if *interval > 0 {
			time.Sleep(time.Until(start.Add(time.Duration(k**interval) * time.Millisecond)))
		}
		t0 := time.Now()
		fmt.Println(answer(r, name))
		if *laps {
			fmt.Fprintln(os.Stderr, time.Since(t0).Microseconds())
		}
	}
}
