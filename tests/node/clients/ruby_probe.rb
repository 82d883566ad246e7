# SPDX-License-Identifier: Apache-2.0
# ruby_probe.rb NAME...: Ruby's Resolv::DNS (its own walk of resolv.conf's
# search list and ndots), A and AAAA: one line per name, the addresses sorted.
require "resolv"

Resolv::DNS.open do |dns|
  ARGV.each { |name| puts "#{name}: #{dns.getaddresses(name).map(&:to_s).sort.join(" ")}" }
end
