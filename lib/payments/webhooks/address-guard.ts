import dns from 'node:dns';
import net from 'node:net';

/**
 * Which addresses a webhook may connect to (server-side request forgery). The
 * check runs when connecting, on every address the name resolves to, so a name
 * that resolved to a public address when the endpoint was saved and to an
 * internal one now is refused now.
 *
 * - always refused: link-local (169.254.0.0/16, where cloud metadata lives, and
 *   fe80::/10), cloud metadata over IPv6 (fd00:ec2::254), "this network",
 *   multicast, broadcast and unspecified addresses;
 * - refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: private ranges (10/8,
 *   172.16/12, 192.168/16, 100.64/10 shared, fc00::/7 unique local);
 * - allowed: loopback (a receiver on the merchant's own machine, in test mode)
 *   and public addresses.
 */
const never = new net.BlockList();
never.addSubnet('169.254.0.0', 16, 'ipv4');
never.addSubnet('0.0.0.0', 8, 'ipv4');
never.addSubnet('224.0.0.0', 4, 'ipv4');
never.addSubnet('240.0.0.0', 4, 'ipv4');
never.addSubnet('fe80::', 10, 'ipv6');
never.addSubnet('ff00::', 8, 'ipv6');
never.addAddress('fd00:ec2::254', 'ipv6');
never.addAddress('::', 'ipv6');

const privateRanges = new net.BlockList();
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addSubnet('fc00::', 7, 'ipv6');

/** Why `address` may not be connected to, or undefined when it may. */
export function refusalOf(address: string, allowPrivateNetworks: boolean): string | undefined {
  let ip = address;
  let type: 'ipv4' | 'ipv6' = net.isIPv4(ip) ? 'ipv4' : 'ipv6';
  // An IPv4 address written as IPv6 (::ffff:169.254.169.254) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) [ip, type] = [mapped[1]!, 'ipv4'];
  if (never.check(ip, type)) return `${address} is a link-local, metadata or reserved address`;
  if (!allowPrivateNetworks && privateRanges.check(ip, type)) {
    return `${address} is a private network address (set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow)`;
  }
  return undefined;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'EADDRNOTALLOWED';
}

/** A `lookup` for http.request that resolves as usual, then refuses any forbidden address. */
export function guardedLookup(allowPrivateNetworks: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      for (const { address } of list) {
        const refusal = refusalOf(address, allowPrivateNetworks);
        if (refusal) return callback(new ForbiddenAddressError(`${hostname}: ${refusal}`), '', 4);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
