/**
 * `trustProxy`: which `X-Forwarded-For` entries to believe for `req.ip`, as Express's `trust proxy` and
 * Fastify's `trustProxy` do. Behind a proxy the socket address is the proxy's; the proxy appends the
 * address it received the request from to `X-Forwarded-For`. The client is found by walking that list
 * from the right, starting at the socket: while the current address is a trusted proxy, the entry to its
 * left is what that proxy saw. The first untrusted address is the client. Entries left of it were written
 * by the client itself and are never believed.
 *
 * @example
 * new Application({ trustProxy: 'loopback' });            // nginx on the same host
 * new Application({ trustProxy: ['10.0.0.0/8', '::1'] }); // a load balancer's subnet
 * new Application({ trustProxy: 1 });                     // exactly one proxy in front, wherever it is
 */
import { net } from '../builtins.js';

/**
 * `true`: every hop (the leftmost entry is the client — only when nothing but the proxy can reach the
 * app); a number: that many hops from the socket; an address, a CIDR subnet, or `'loopback'`,
 * `'linklocal'`, `'uniquelocal'` (a list, or a comma-separated string); or a function `(address, hop)`.
 */
export type TrustProxy =
  | boolean
  | number
  | string
  | readonly string[]
  | ((address: string, hop: number) => boolean);

const NAMED: Record<string, readonly string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Trust = (address: string, hop: number) => boolean;
const compiled = new WeakMap<object, Trust>();
const compiledStrings = new Map<string, Trust>();

/** `::ffff:10.0.0.1` → `10.0.0.1`, so one IPv4 rule covers both spellings. */
function normalise(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

/** Turns the option into a predicate; an entry that is neither an address, a subnet nor a name throws. */
export function compileTrust(option: TrustProxy): Trust {
  if (typeof option === 'function') return option;
  if (typeof option === 'boolean') return () => option;
  if (typeof option === 'number') {
    if (!Number.isInteger(option) || option < 0)
      throw new RangeError(`trustProxy: a hop count must be a non-negative integer, got ${option}`);
    return (_address, hop) => hop < option;
  }
  const key = typeof option === 'string' ? option : option.join(',');
  const known = compiledStrings.get(key);
  if (known !== undefined) return known;
  const list = new net.BlockList();
  const entries = key
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries.flatMap((entry) => NAMED[entry] ?? [entry])) {
    const [address = '', bits] = entry.split('/');
    const family = net.isIP(address);
    if (family === 0)
      throw new TypeError(`trustProxy: ${JSON.stringify(entry)} is not an address, a subnet or a name`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128))
        throw new TypeError(`trustProxy: ${JSON.stringify(entry)} has an invalid prefix length`);
      list.addSubnet(address, prefix, type);
    }
  }
  const trust: Trust = (address) => {
    const plain = normalise(address);
    const family = net.isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
  compiledStrings.set(key, trust);
  return trust;
}

/**
 * The client address: `socketAddress` unless it is a trusted proxy, then the `X-Forwarded-For` entries
 * from the right while each hop is trusted. An entry that is not an IP address ends the walk: the hop that
 * wrote it is taken as the client, never the text.
 */
export function clientAddress(
  socketAddress: string,
  forwardedFor: string | undefined,
  option: TrustProxy,
): string {
  if (forwardedFor === undefined || forwardedFor === '') return socketAddress;
  let trust: Trust;
  if (typeof option === 'function' || (typeof option === 'object' && option !== null)) {
    trust = compiled.get(option) ?? compileTrust(option);
    compiled.set(option, trust);
  } else trust = compileTrust(option);
  const hops = forwardedFor.split(',');
  let client = socketAddress;
  for (let hop = 0; hop < hops.length; hop++) {
    if (!trust(client, hop)) return client;
    const next = normalise((hops[hops.length - 1 - hop] as string).trim());
    if (net.isIP(next) === 0) return client;
    client = next;
  }
  return client;
}
