import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IPv6 global unicast (2000::/3): every other IPv6 prefix is local, special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** Prefixes inside 2000::/3 that embed or tunnel to IPv4 (NAT64 local use, 6to4, Teredo); ipaddr.js names the others. */
const EMBEDDED_V4_PREFIXES = [ipaddr.parseCIDR('2002::/16'), ipaddr.parseCIDR('2001::/32')];

/**
 * Whether an IP address is a public unicast address a server-side fetch may reach. Refuses
 * loopback (127/8, ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16
 * including the cloud metadata address, fe80::/10), carrier-grade NAT (100.64/10), 0.0.0.0/8,
 * broadcast, multicast, reserved and documentation ranges, IPv4-mapped/-translated IPv6 forms of
 * those, NAT64 and tunnel prefixes, and anything outside IPv6 global unicast. Unparseable input is
 * refused.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone index (fe80::1%eth0) is only ever link-local.
  if (bare.includes('%')) return false;
  // Only the canonical forms Node connects to; '127.1' or '0x7f.0.0.1' are not addresses here.
  if (isIP(bare) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicV4(v6.toIPv4Address());
    if (!v6.match(GLOBAL_UNICAST_V6)) return false;
    if (EMBEDDED_V4_PREFIXES.some((prefix) => v6.match(prefix))) return false;
    return v6.range() === 'unicast';
  }
  return isPublicV4(parsed as ipaddr.IPv4);
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}
