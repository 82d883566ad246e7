# Node tests: the node-local cache in a sandbox (tests/node/).
