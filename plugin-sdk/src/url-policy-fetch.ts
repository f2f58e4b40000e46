/**
 * fetch() for tenants' URLs, under the outbound URL policy (url-policy.ts). Checking a URL once
 * and then handing it to fetch() is not enough: the name can resolve to a public address for
 * the check and to 127.0.0.1 a moment later (DNS rebinding), and the server can redirect to a
 * private address. So here:
 *
 * - every connection resolves its host through the policy (the socket's `lookup`): the address
 *   it connects to is the one just checked, never a second answer;
 * - redirects are followed by hand, each hop checked again (at most `maxRedirects`);
 * - no connection is reused from a shared pool another caller filled without the policy.
 *
 * It answers a standard Response. Bodies are buffers or text (a redirect may have to send them
 * again); the answer is not decompressed, so `accept-encoding: identity` is asked for.
 */
import * as http from "node:http";
import * as https from "node:https";
import { Readable } from "node:stream";
import { allowListOf, checkOutboundUrl, OutboundUrlError, type OutboundPolicy } from "./url-policy";
import { policyLookup } from "./url-policy-agent";

export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams;
  signal?: AbortSignal;
  /** "follow" (default; every hop checked again), "manual" (the 3xx is the answer) or "error". */
  redirect?: "follow" | "manual" | "error";
  /** Hops followed before giving up (default 5). */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Not sent to another origin after a redirect. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];

function payloadOf(body: SafeFetchInit["body"]): Buffer | undefined {
  if (body === undefined) return undefined;
  if (typeof body === "string" || body instanceof URLSearchParams) return Buffer.from(body.toString());
  return Buffer.from(body);
}

function send(u: URL, method: string, headers: Record<string, string>, payload: Buffer | undefined, signal: AbortSignal | undefined, policy: OutboundPolicy): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const h = { "accept-encoding": "identity", ...headers, ...(payload ? { "content-length": String(payload.length) } : {}) };
    const req = (u.protocol === "https:" ? https : http).request({
      protocol: u.protocol,
      hostname: u.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: u.port || undefined,
      path: `${u.pathname}${u.search}`,
      method,
      headers: h,
      lookup: policyLookup(policy),
      agent: false,
      signal,
    });
    req.once("response", resolve);
    req.once("error", (err) => reject(signal?.aborted ? signal.reason : err));
    req.end(payload);
  });
}

function toResponse(res: http.IncomingMessage, url: URL, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const status = res.statusCode ?? 502;
  const bodiless = method === "HEAD" || [204, 205, 304].includes(status);
  if (bodiless) res.resume();
  const response = new Response(bodiless ? null : (Readable.toWeb(res) as unknown as ReadableStream), { status, statusText: res.statusMessage, headers });
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}

/**
 * Calls a tenant's URL under the policy. A refused address (at the first hop, after a redirect,
 * or at connect time) rejects with OutboundUrlError (code ERR_URL_NOT_ALLOWED); the platform's
 * allow-list is `policy.allow` (a plugin's: pluginContext(this).outboundAllow).
 */
export async function safeFetch(url: string | URL, init: SafeFetchInit = {}, policy: OutboundPolicy = {}): Promise<Response> {
  const p: OutboundPolicy = { ...policy, allow: allowListOf(policy) };
  let current = new URL(url);
  let method = (init.method ?? "GET").toUpperCase();
  let payload = payloadOf(init.body);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  if (init.body instanceof URLSearchParams && !headers["content-type"]) headers["content-type"] = "application/x-www-form-urlencoded;charset=UTF-8";
  const maxRedirects = init.maxRedirects ?? 5;

  for (let hop = 0; ; hop++) {
    const checked = await checkOutboundUrl(current, p);
    if (!checked.ok) throw new OutboundUrlError(checked, hop ? "A redirect's address" : "The address");
    const res = await send(current, method, headers, payload, init.signal, p);
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode ?? 0) || !location || init.redirect === "manual") return toResponse(res, current, method);
    res.resume();
    if (init.redirect === "error") throw new Error(`${current.origin} redirected to ${location}, which this call does not follow`);
    if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects from ${new URL(url).origin}`);
    const next = new URL(location, current);
    // As fetch does: 303 turns the call into a GET, and so do 301/302 after a POST.
    if ((res.statusCode === 303 && method !== "HEAD") || ((res.statusCode === 301 || res.statusCode === 302) && method === "POST")) {
      method = "GET";
      payload = undefined;
      delete headers["content-type"];
    }
    if (next.origin !== current.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
    current = next;
  }
}
