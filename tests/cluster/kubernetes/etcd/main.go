// SPDX-License-Identifier: Apache-2.0
// etcd, as its own main package runs it.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
