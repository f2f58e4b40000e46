/**
 * 360dialog as the library's provider (@openatende/whatsapp-cloud, provider.ts), WHATSAPP.md §3:
 *
 * - calls: `<base>/messages`, `<base>/media`, `<base>/<media id>` with `D360-API-KEY: <key>`
 *   (no Bearer, no phone-number id in the paths: the key is the number's);
 * - media: the lookup answers Meta's URL (lookaside.fbsbx.com); the file is fetched from that
 *   URL's path and query on the 360dialog host, with the key;
 * - the webhook: 360dialog posts Meta's envelope to the URL registered for the number
 *   (`POST <base>/v1/configs/webhook {url, headers}`, done on connect) and has no handshake.
 *   The URL carries the connection's token (hex: 360dialog takes no "_" in a webhook URL) and
 *   the registration sets a secret header, an HMAC of the token under the API key, which every
 *   delivery must carry; a partner's x-360dialog-signature (bare-hex HMAC-SHA256 of the body
 *   with the partner secret) is accepted instead when the connection holds that secret. One
 *   URL per number: whatever comes to it is its connection's (no routing to other connections);
 * - templates: `<base>/v1/configs/templates` (list: `waba_templates[]`, offset paging), deleted
 *   by name at `<base>/v1/configs/templates/<name>`; a media header's sample goes through
 *   360dialog's relay of the Resumable Upload API (`<base>/uploads`, then `<base>/<upload:…>`
 *   with the key; docs.360dialog.com, Messaging API › Media Uploads).
 */
import { createHmac } from "node:crypto";
import { hmacSignatureValid, sameSecret } from "@openatende/plugin-sdk";
import { qs, resumableUpload, type CloudProvider, type Headers, type ProviderProfile, type TemplateApi } from "@openatende/whatsapp-cloud";
import { readSettings, type D360Settings } from "./settings";

/** The header our registration asks 360dialog to send with every delivery. */
export const SECRET_HEADER = "x-openatende-webhook-secret";
/** The partner-level signature (bare hex HMAC-SHA256 of the raw body). */
export const PARTNER_SIGNATURE = "x-360dialog-signature";

/** The secret header's value for a connection: only 360dialog (told at registration) and we know it. */
export function webhookSecretOf(apiKey: string, token: string): string {
  return createHmac("sha256", apiKey).update(`openatende:channel-360:webhook:${token}`).digest("hex");
}

/** The token as written in the URL: hex of its bytes (no "_", "-" or case to lose). */
export const urlToken = {
  encode: (token: string) => Buffer.from(token, "utf8").toString("hex"),
  decode(param: string): string | null {
    if (!/^(?:[0-9a-f]{2}){5,64}$/.test(param)) return null;
    const token = Buffer.from(param, "hex").toString("utf8");
    return /^[A-Za-z0-9_:.-]+$/.test(token) ? token : null;
  },
};

export function d360Profile(s: Pick<D360Settings, "baseUrl" | "apiKey">): ProviderProfile {
  return {
    name: "360dialog",
    baseUrl: s.baseUrl,
    headers: { "D360-API-KEY": s.apiKey },
    messagesPath: "/messages",
    mediaUploadPath: "/media",
    mediaInfoPath: (id) => `/${encodeURIComponent(id)}`,
    // Meta's URL is not reachable with the key: the same path and query on the 360dialog host is.
    downloadUrl(url) {
      try {
        const u = new URL(url);
        return `${s.baseUrl}${u.pathname}${u.search}`;
      } catch {
        return url;
      }
    },
    probePath: "/v1/configs/webhook",
  };
}

/** 360dialog writes statuses in lower case and "submitted" for one under review. */
function normalised(t: Record<string, unknown>): Record<string, unknown> {
  const status = String(t.status ?? "").toUpperCase();
  return { ...t, status: !status || status === "SUBMITTED" ? "PENDING" : status };
}

const TEMPLATES = "/v1/configs/templates";
const arr = (v: unknown) => (Array.isArray(v) ? v : []) as Array<Record<string, unknown>>;
type ListAnswer = { waba_templates?: unknown; count?: unknown; total?: unknown; offset?: unknown };

export const d360Templates: TemplateApi<D360Settings> = {
  async list(graph, _s, p) {
    const offset = p.after && /^[0-9]{1,6}$/.test(p.after) ? Number(p.after) : 0;
    const res = await graph.call<ListAnswer>("GET", `${TEMPLATES}?${qs({ limit: p.limit, offset })}`);
    const page = arr(res.waba_templates).map(normalised);
    const total = Number(res.total);
    const after = offset + page.length;
    // The status filter is ours (360dialog's filter syntax is not Meta's); the paging stays the API's.
    const data = p.status ? page.filter((t) => t.status === p.status) : page;
    return { data, next: page.length && Number.isFinite(total) && after < total ? String(after) : null };
  },
  async byName(graph, _s, name) {
    const out: Array<Record<string, unknown>> = [];
    // A WABA has at most 250 names, each in several languages: a few pages at most.
    for (let offset = 0, pages = 0; pages < 10; pages++) {
      const res = await graph.call<ListAnswer>("GET", `${TEMPLATES}?${qs({ limit: 250, offset })}`);
      const page = arr(res.waba_templates);
      out.push(...page.filter((t) => t.name === name).map(normalised));
      offset += page.length;
      if (!page.length || !(offset < Number(res.total))) break;
    }
    return out;
  },
  create: (graph, _s, body) => graph.call<{ id?: unknown; status?: unknown }>("POST", TEMPLATES, body),
  async delete(graph, _s, name) {
    // 360dialog deletes a name with all its languages.
    await graph.call("DELETE", `${TEMPLATES}/${encodeURIComponent(name)}`);
    return true;
  },
  // The key (the profile's header) is the credential of both calls.
  uploadSample: (graph, _s, file) => resumableUpload(graph, "/uploads", {}, file),
};

export const d360Provider: CloudProvider<D360Settings> = {
  pluginId: "channel-360",
  codes: "ERR_D360",
  label: "360dialog",
  webhookSegment: "d360",
  urlToken,
  webhookHeaders: [SECRET_HEADER, PARTNER_SIGNATURE],
  readSettings,
  profile: d360Profile,
  authentic(s, body, headers: Headers, ctx) {
    if (sameSecret(headers[SECRET_HEADER], webhookSecretOf(s.apiKey, ctx.token))) return true;
    return !!s.webhookSecret && hmacSignatureValid(body, s.webhookSecret, headers[PARTNER_SIGNATURE], { prefix: "" });
  },
  // The URL is one number's: every account's change that reaches it (authenticated) is its own.
  ownsAccount: () => true,
  templates: d360Templates,
  // What the test shows under its translated title: the number the key belongs to.
  accepted: (s) => `+${s.phoneNumber}`,
  async afterConnect(call, s, webhook) {
    await call("POST", "/v1/configs/webhook", { url: webhook.url, headers: { [SECRET_HEADER]: webhookSecretOf(s.apiKey, webhook.token) } });
  },
};
