/**
 * The one outbound URL policy: every URL (or host) a tenant can configure and the platform
 * then calls — a channel's server, a flow's webhook, a Typebot — goes through it, in the core
 * (core/src/lib/url-policy.ts, when the URL is stored) and in plugins (when they connect, with
 * safeFetch: url-policy-fetch.ts). A tenant must not make the platform reach what only the
 * platform's machines can reach: loopback, private and link-local networks, the cloud's
 * metadata address (169.254.169.254), "localhost".
 *
 *   const checked = await checkOutboundUrl(settings.apiUrl, { allow: pluginContext(this).outboundAllow });
 *   if (!checked.ok) throw …ERR_URL_NOT_ALLOWED, { field: "apiUrl", reason: checked.reason }
 *
 * Only the installation's operator can open an exception: `allow`, the platform's allow-list
 * (OUTBOUND_URL_ALLOWLIST: hosts, IPs and CIDRs), which plugins get in their context.
 *
 * A name is resolved and EVERY address it resolves to must pass (a name with one public and one
 * private address is refused): which one a client connects to is not ours to choose.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { AllowList, hostKey, isLocalhostName, isPublicAddress, parseIp } from "./url-policy-address";

export { AllowList, allowEntryError, isPublicAddress } from "./url-policy-address";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (default: the system resolver, as connections do). */
export type OutboundLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** The platform's allow-list: host names (`*.name` for every name under it), IPs, CIDRs. */
  allow?: readonly string[] | AllowList;
  /** How names are resolved; tests inject one. */
  lookup?: OutboundLookup;
}

export type OutboundRefusal =
  /** Not a URL at all. */
  | "invalid-url"
  /** Not http: or https:. */
  | "scheme"
  /** A user name or password in the URL. */
  | "credentials"
  /** "localhost" or a name under it. */
  | "localhost"
  /** The address, or one the name resolves to, is not public. */
  | "private-address"
  /** The name resolves to nothing (or the resolver failed). */
  | "unresolvable";

export type OutboundDenied = { ok: false; reason: OutboundRefusal; host?: string; address?: string };

/** A host's answer: the address to connect to (the first one resolved), or why not. */
export type HostCheck = { ok: true; host: string; address: string; family: number } | OutboundDenied;

/** A URL's answer: the host's, with the parsed URL. */
export type OutboundCheck = { ok: true; url: URL; host: string; address: string; family: number } | OutboundDenied;

const REFUSAL_TEXT: Record<OutboundRefusal, string> = {
  "invalid-url": "is not a valid URL",
  scheme: "must use http or https",
  credentials: "must not carry a user name or password",
  localhost: "points to this machine (localhost)",
  "private-address": "points to an internal network (loopback, private, link-local or reserved)",
  unresolvable: "has a host name that does not resolve",
};

/** A refused outbound URL, with the catalogue code plugins and the core answer with. */
export class OutboundUrlError extends Error {
  readonly code = "ERR_URL_NOT_ALLOWED";
  readonly reason: OutboundRefusal;
  readonly host?: string;
  readonly address?: string;

  constructor(refusal: OutboundDenied, what = "The address") {
    super(`${what}${refusal.host ? ` (${refusal.host}${refusal.address && refusal.address !== refusal.host ? ` → ${refusal.address}` : ""})` : ""} ${REFUSAL_TEXT[refusal.reason]}; the platform's operator can allow it (OUTBOUND_URL_ALLOWLIST)`);
    this.name = "OutboundUrlError";
    this.reason = refusal.reason;
    this.host = refusal.host;
    this.address = refusal.address;
  }
}

export const defaultLookup: OutboundLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function allowListOf(policy: OutboundPolicy): AllowList {
  return policy.allow instanceof AllowList ? policy.allow : new AllowList(policy.allow ?? []);
}

/**
 * Whether a host (a name or an IP, IPv6 with or without brackets) may be reached, and the
 * address to connect to. For settings that are a host and a port rather than a URL (IMAP,
 * SMTP, proxies) and for each connection safeFetch opens.
 */
export async function checkOutboundHost(host: string, policy: OutboundPolicy = {}): Promise<HostCheck> {
  const allow = allowListOf(policy);
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const ip = parseIp(bare);
  if (ip) {
    if (isPublicAddress(ip) || allow.hasAddress(ip)) return { ok: true, host: bare, address: bare, family: ip.family };
    return { ok: false, reason: "private-address", host: bare, address: bare };
  }
  if (!bare || /[\s/\\@]/.test(bare)) return { ok: false, reason: "invalid-url", host: bare };
  // An allow-listed name is trusted whatever it resolves to (a test's fake, an internal server).
  const trusted = allow.hasHost(bare);
  if (!trusted && isLocalhostName(bare)) return { ok: false, reason: "localhost", host: bare };
  let addresses: ResolvedAddress[];
  try {
    addresses = await (policy.lookup ?? defaultLookup)(hostKey(bare));
  } catch {
    addresses = [];
  }
  if (!addresses.length) return { ok: false, reason: "unresolvable", host: bare };
  if (!trusted) {
    const refused = addresses.find((a) => !isPublicAddress(a.address) && !allow.hasAddress(a.address));
    if (refused) return { ok: false, reason: "private-address", host: bare, address: refused.address };
  }
  return { ok: true, host: bare, address: addresses[0].address, family: addresses[0].family };
}

/**
 * Whether a tenant's URL may be called: http(s) only, no credentials, and its host public (or
 * allow-listed). The WHATWG parser reads the host first, so 127.1, 0x7f000001 and 2130706433
 * are all 127.0.0.1 here, as they are to every client.
 */
export async function checkOutboundUrl(url: string | URL, policy: OutboundPolicy = {}): Promise<OutboundCheck> {
  let u: URL;
  try {
    u = typeof url === "string" ? new URL(url) : url;
  } catch {
    return { ok: false, reason: "invalid-url" };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return { ok: false, reason: "scheme", host: u.hostname };
  if (u.username || u.password) return { ok: false, reason: "credentials", host: u.hostname };
  const checked = await checkOutboundHost(u.hostname, policy);
  return checked.ok ? { ...checked, url: u } : checked;
}
