/**
 * The address half of the outbound URL policy (url-policy.ts): which IP addresses are public,
 * and the platform's allow-list (hosts, IPs and CIDRs the installation's operator trusts).
 *
 * IPv4 is public unless it falls in a special-purpose block (RFC 6890 and successors). IPv6 is
 * refused unless it is global unicast (2000::/3) outside the documentation and IETF blocks, so
 * every range not listed here (::1, fc00::/7, fe80::/10, ff00::/8, the old site-local…) is
 * refused by default. An IPv6 address that carries an IPv4 one (::ffff:a.b.c.d, NAT64, 6to4)
 * is judged by the IPv4 address inside it.
 */
import { isIP } from "node:net";

export interface IpAddress {
  family: 4 | 6;
  /** The address as a number (32 or 128 bits). */
  value: bigint;
}

interface Cidr extends IpAddress {
  prefix: number;
}

/** Parses a dotted-quad IPv4 or an IPv6 address (brackets and a zone index allowed); undefined otherwise. */
export function parseIp(text: string): IpAddress | undefined {
  const raw = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const family = isIP(raw);
  if (family === 4) return { family: 4, value: ipv4Value(raw) };
  if (family === 6) return { family: 6, value: ipv6Value(raw) };
  return undefined;
}

function ipv4Value(text: string): bigint {
  return text.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 text node's isIP accepted: groups, one "::", maybe a dotted IPv4 tail. */
function ipv6Value(text: string): bigint {
  let s = text.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const v4 = ipv4Value(tail[1]);
    s = `${s.slice(0, -tail[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = s.split("::");
  const left = head ? head.split(":") : [];
  const right = rest === undefined ? [] : rest ? rest.split(":") : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function cidr(text: string): Cidr {
  const [ip, bits] = text.split("/");
  const parsed = parseIp(ip)!;
  return { ...parsed, prefix: Number(bits) };
}

function inCidr(a: IpAddress, c: Cidr): boolean {
  if (a.family !== c.family) return false;
  const shift = BigInt((a.family === 4 ? 32 : 128) - c.prefix);
  return a.value >> shift === c.value >> shift;
}

const V4_SPECIAL = [
  "0.0.0.0/8", // "this" network
  "10.0.0.0/8", // private
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local (cloud metadata at 169.254.169.254)
  "172.16.0.0/12", // private
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.88.99.0/24", // 6to4 relay anycast
  "192.168.0.0/16", // private
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, and the broadcast 255.255.255.255
].map(cidr);

const V6_GLOBAL = cidr("2000::/3");
const V6_SPECIAL = [
  "2001::/23", // IETF protocol assignments (Teredo, benchmarking, ORCHID…)
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation
].map(cidr);
const V4_MAPPED = cidr("::ffff:0:0/96");
const NAT64 = cidr("64:ff9b::/96");
const SIX_TO_FOUR = cidr("2002::/16");

/** The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4), or the address itself. */
export function unwrapIpv4(a: IpAddress): IpAddress {
  if (a.family === 4) return a;
  if (inCidr(a, V4_MAPPED) || inCidr(a, NAT64)) return { family: 4, value: a.value & 0xffffffffn };
  if (inCidr(a, SIX_TO_FOUR)) return { family: 4, value: (a.value >> 80n) & 0xffffffffn };
  return a;
}

/** True when the address is reachable on the public Internet (neither private, loopback, link-local nor special). */
export function isPublicAddress(address: string | IpAddress): boolean {
  const parsed = typeof address === "string" ? parseIp(address) : address;
  if (!parsed) return false;
  const a = unwrapIpv4(parsed);
  if (a.family === 4) return !V4_SPECIAL.some((c) => inCidr(a, c));
  return inCidr(a, V6_GLOBAL) && !V6_SPECIAL.some((c) => inCidr(a, c));
}

/** A host name as compared: lower case, no trailing dot. */
export const hostKey = (host: string) => host.toLowerCase().replace(/\.$/, "");

/** Names that are this machine whatever DNS says (RFC 6761). */
export const isLocalhostName = (host: string) => /(^|\.)localhost$/.test(hostKey(host));

const HOST_NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/i;

/**
 * Why an allow-list entry is not one: undefined when it is an IP address, a CIDR
 * (10.0.0.0/8, fd00::/8), a host name, or `*.name` (every name under it).
 */
export function allowEntryError(entry: string): string | undefined {
  const e = entry.trim();
  if (e.includes("/")) {
    const [ip, bits, more] = e.split("/");
    const family = isIP(ip);
    if (!family || more !== undefined || !/^\d{1,3}$/.test(bits ?? "") || Number(bits) > (family === 4 ? 32 : 128)) return `"${entry}" is not a CIDR (10.0.0.0/8, fd00::/8)`;
    return undefined;
  }
  if (isIP(e.replace(/^\[(.*)\]$/, "$1"))) return undefined;
  if (!HOST_NAME.test(hostKey(e)) || e.length > 253) return `"${entry}" is neither an IP address, a CIDR nor a host name`;
  return undefined;
}

/** The platform's allow-list, compiled: what the operator lets tenants' URLs reach although it is not public. */
export class AllowList {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ranges: Cidr[] = [];

  /** Throws on an entry that is not an IP, a CIDR or a host name (the configuration checks them first). */
  constructor(entries: readonly string[] = []) {
    for (const raw of entries) {
      const e = raw.trim();
      if (!e) continue;
      const why = allowEntryError(e);
      if (why) throw new Error(`outbound allow-list: ${why}`);
      if (e.includes("/")) this.ranges.push(cidr(e));
      else if (parseIp(e)) this.ranges.push(exact(unwrapIpv4(parseIp(e)!)));
      else if (e.startsWith("*.")) this.suffixes.push(hostKey(e.slice(1)));
      else this.names.add(hostKey(e));
    }
  }

  get empty(): boolean {
    return !this.names.size && !this.suffixes.length && !this.ranges.length;
  }

  hasHost(host: string): boolean {
    const key = hostKey(host);
    return this.names.has(key) || this.suffixes.some((s) => key.endsWith(s));
  }

  hasAddress(address: string | IpAddress): boolean {
    const parsed = typeof address === "string" ? parseIp(address) : address;
    if (!parsed) return false;
    // An allow-listed 127.0.0.1 also lets ::ffff:127.0.0.1 through: the same machine.
    const candidates = [parsed, unwrapIpv4(parsed)];
    return this.ranges.some((r) => candidates.some((a) => inCidr(a, r)));
  }
}

function exact(a: IpAddress): Cidr {
  return { ...a, prefix: a.family === 4 ? 32 : 128 };
}
