// The SSRF rules of docs/webhooks.md: https only (http with WEBHOOK_ALLOW_HTTP), and no address that
// is loopback, private, link-local, shared, documentation, multicast or otherwise not the public
// internet (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS). Checked on every address a name resolves to at
// creation, and again on the address actually connected to at delivery (webhooks.sender.provider.ts).
import dns from 'node:dns/promises';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (URL parsing writes any dotted tail as hex). */
function ipv6Groups(address: string): number[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [left, right] = canonical.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const head = parse(left);
  const tail = parse(right);
  const groups = right === undefined ? head : [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
const zero = (groups: number[]) => groups.every((group) => group === 0);

/**
 * The IPv4 address an IPv6 form carries, where a host or a translator reaches that IPv4 address:
 * IPv4-compatible ::/96 (`::7f00:1`, `::127.0.0.1`), IPv4-mapped ::ffff:0:0/96, IPv4-translated
 * ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 6to4 2002::/16 (the last two are refused whole as well).
 */
function embeddedIpv4(groups: number[]): string | undefined {
  if (zero(groups.slice(0, 5)) && groups[5] === 0xffff) return dotted(groups[6], groups[7]);
  if (zero(groups.slice(0, 4)) && groups[4] === 0xffff && groups[5] === 0) return dotted(groups[6], groups[7]);
  if (zero(groups.slice(0, 6))) return dotted(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(groups.slice(2, 6))) return dotted(groups[6], groups[7]);
  if (groups[0] === 0x2002) return dotted(groups[1], groups[2]);
  return undefined;
}

/** True for an address a webhook may not reach without WEBHOOK_ALLOW_PRIVATE_NETWORKS. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 0) return true;
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (blocked.check(bare, 'ipv6')) return true;
  // Every IPv6 form that embeds an IPv4 address is that address as well (docs/webhooks.md, SSRF rules).
  const groups = ipv6Groups(bare);
  if (!groups) return true;
  const ipv4 = embeddedIpv4(groups);
  return ipv4 !== undefined && blocked.check(ipv4, 'ipv4');
}

export interface AddressRules {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
}

export const URL_MESSAGES = {
  invalid: 'The url must be a valid URL.',
  https: 'The url must use https.',
  credentials: 'The url must not contain a user name or password.',
  unresolvable: 'The url host could not be resolved.',
  internal: 'The url must not resolve to a loopback, private, link-local or internal address.',
} as const;

/** The first rule `url` breaks (its message), or undefined; resolves the host name. */
export async function checkEndpointUrl(url: string, rules: AddressRules): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return URL_MESSAGES.invalid;
  }
  if (parsed.protocol !== 'https:' && !(rules.allowHttp && parsed.protocol === 'http:')) {
    return URL_MESSAGES.https;
  }
  if (parsed.username || parsed.password) return URL_MESSAGES.credentials;
  if (rules.allowPrivateNetworks) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      return URL_MESSAGES.unresolvable;
    }
  }
  if (addresses.length === 0) return URL_MESSAGES.unresolvable;
  return addresses.some(isInternalAddress) ? URL_MESSAGES.internal : undefined;
}
