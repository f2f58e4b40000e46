/**
 * The core's side of the outbound URL policy (the SDK's url-policy.ts, which plugins use too):
 * the platform's allow-list from the configuration, and checks that answer the catalogue's
 * ERR_URL_NOT_ALLOWED (400) with the field, for the URLs and hosts tenants store.
 *
 * A plugin's settings say which of their fields the platform will call: a settingsSchema rule
 * with `outbound: "url"` (an http(s) URL), `outbound: "host"` (a bare host, such as an IMAP
 * server) or `outbound: "proxy"` (a proxy's URL, http or socks: its host is checked), e.g. `"apiUrl": { "type": "string", "outbound": "url" }`; assertOutboundSettings
 * checks them wherever the core stores or tests a connection's settings.
 */
import type { AppConfig } from "@openatende/config";
import { AllowList, checkOutboundHost, checkOutboundUrl, type OutboundDenied, type OutboundLookup, type OutboundPolicy } from "@openatende/plugin-sdk/src/url-policy";
import { AppError } from "../errors/app-error";

const allowLists = new WeakMap<readonly string[], AllowList>();

/** The policy of this installation: its operator's allow-list (OUTBOUND_URL_ALLOWLIST). */
export function outboundPolicy(config: Pick<AppConfig, "outboundUrlAllowlist">, lookup?: OutboundLookup): OutboundPolicy {
  let allow = allowLists.get(config.outboundUrlAllowlist);
  if (!allow) allowLists.set(config.outboundUrlAllowlist, (allow = new AllowList(config.outboundUrlAllowlist)));
  return { allow, ...(lookup ? { lookup } : {}) };
}

export interface StoredUrlOptions {
  lookup?: OutboundLookup;
  /**
   * Accept a name that does not resolve now (default true when storing): DNS may be down for a
   * moment, and whoever calls the URL later checks it again at connect time (safeFetch).
   */
  allowUnresolvable?: boolean;
}

function refuse(denied: OutboundDenied, field: string): never {
  throw new AppError("ERR_URL_NOT_ALLOWED", { field, reason: denied.reason, ...(denied.host ? { host: denied.host } : {}) });
}

/** Throws ERR_URL_NOT_ALLOWED { field, reason, host } unless the URL may be called. */
export async function assertOutboundUrl(config: Pick<AppConfig, "outboundUrlAllowlist">, url: string, field: string, opts: StoredUrlOptions = {}): Promise<void> {
  const checked = await checkOutboundUrl(url, outboundPolicy(config, opts.lookup));
  if (!checked.ok && !(checked.reason === "unresolvable" && opts.allowUnresolvable !== false)) refuse(checked, field);
}

/** Throws ERR_URL_NOT_ALLOWED { field, reason, host } unless the host (name or IP) may be reached. */
export async function assertOutboundHost(config: Pick<AppConfig, "outboundUrlAllowlist">, host: string, field: string, opts: StoredUrlOptions = {}): Promise<void> {
  const checked = await checkOutboundHost(host, outboundPolicy(config, opts.lookup));
  if (!checked.ok && !(checked.reason === "unresolvable" && opts.allowUnresolvable !== false)) refuse(checked, field);
}

type OutboundKind = "url" | "host" | "proxy";
const KINDS: readonly unknown[] = ["url", "host", "proxy"];

/** The fields of a settings schema the platform calls out to, with what they hold. */
export function outboundFieldsOf(schema: Record<string, unknown> | undefined): Array<{ name: string; kind: OutboundKind }> {
  const out: Array<{ name: string; kind: OutboundKind }> = [];
  for (const [name, rule] of Object.entries(schema ?? {})) {
    const kind = (rule as { outbound?: unknown } | null)?.outbound;
    if (KINDS.includes(kind)) out.push({ name, kind: kind as OutboundKind });
  }
  return out;
}

/** A proxy's URL (http, https, socks…): the platform connects to its host, which must be allowed. */
async function assertOutboundProxy(config: Pick<AppConfig, "outboundUrlAllowlist">, url: string, field: string, opts: StoredUrlOptions): Promise<void> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new AppError("ERR_URL_NOT_ALLOWED", { field, reason: "invalid-url" });
  }
  await assertOutboundHost(config, host, field, opts);
}

/** Checks every non-empty outbound field of `settings` (already validated against `schema`); the error's field is `<prefix>.<name>`. */
export async function assertOutboundSettings(config: Pick<AppConfig, "outboundUrlAllowlist">, schema: Record<string, unknown> | undefined, settings: Record<string, unknown>, prefix = "settings", opts: StoredUrlOptions = {}): Promise<void> {
  for (const { name, kind } of outboundFieldsOf(schema)) {
    const value = settings[name];
    if (typeof value !== "string" || !value.trim()) continue;
    const field = `${prefix}.${name}`;
    if (kind === "url") await assertOutboundUrl(config, value.trim(), field, opts);
    else if (kind === "proxy") await assertOutboundProxy(config, value.trim(), field, opts);
    else await assertOutboundHost(config, value.trim(), field, opts);
  }
}
