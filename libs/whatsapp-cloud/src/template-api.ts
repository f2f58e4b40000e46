/**
 * Where a provider keeps a number's message templates and how it answers (templates.ts does
 * the rest: checks, errors, the definition cache). Meta's Cloud API: `/<WABA id>/message_templates`
 * with cursor paging and `fields=`; a BSP in front of it (360dialog) has its own paths and list shape.
 *
 * A media header's sample goes up first through the Resumable Upload API: a session
 * (`POST <start>?file_name=&file_length=&file_type=` → `{id:"upload:…"}`), then the bytes
 * (`POST /<session id>`, `file_offset: 0`) → `{h}`, the handle the template's
 * `example.header_handle` names. Meta starts it at `/<app id>/uploads` and takes the bytes'
 * credentials as `OAuth <token>`; 360dialog relays the same two calls at `/uploads` with its key.
 */
import { GraphError, type FilePart, type GraphClient } from "./graph";
import type { CloudSettings } from "./provider";
import { TEMPLATE_FIELDS } from "./template-meta";

export interface TemplatePage {
  /** The templates as the provider writes them (Meta's shape: template-meta.ts reads it). */
  data: Array<Record<string, unknown>>;
  /** The cursor of the next page, or null. */
  next: string | null;
}

export interface TemplateApi<S extends CloudSettings = CloudSettings> {
  list(graph: GraphClient, s: S, p: { limit: number; after?: string; status?: string }): Promise<TemplatePage>;
  /** Every language of the template `name` (exact name). */
  byName(graph: GraphClient, s: S, name: string): Promise<Array<Record<string, unknown>>>;
  create(graph: GraphClient, s: S, body: Record<string, unknown>): Promise<{ id?: unknown; status?: unknown }>;
  /** Deletes every language of `name`, or only the version `id` when the provider can. */
  delete(graph: GraphClient, s: S, name: string, id?: string): Promise<boolean>;
  /** Uploads a media header's sample; answers its handle. */
  uploadSample(graph: GraphClient, s: S, file: FilePart): Promise<string>;
}

/** What Meta writes as an upload session's id ("upload:<base64>", sometimes with "?sig=…"): used as a path, so nothing else passes. */
const SESSION_ID = /^upload:[A-Za-z0-9+/=_.:-]{1,2000}(\?[A-Za-z0-9+/=_.&%-]{1,2000})?$/;

/** The Resumable Upload API's two calls: the session at `startPath`, then the bytes with `bytesHeaders`. */
export async function resumableUpload(graph: GraphClient, startPath: string, bytesHeaders: Record<string, string>, file: FilePart): Promise<string> {
  const session = await graph.call<{ id?: unknown }>("POST", `${startPath}?${qs({ file_name: file.fileName, file_length: file.data.length, file_type: file.mimeType })}`);
  // 360dialog's reference shows the session's id without Meta's "upload:" prefix, which its second call needs.
  const id = typeof session.id === "string" && session.id && !session.id.startsWith("upload:") ? `upload:${session.id}` : session.id;
  if (typeof id !== "string" || !SESSION_ID.test(id)) throw new GraphError("the upload answered no session id", 502, 0, "No upload session");
  const done = await graph.postBytes<{ h?: unknown }>(`/${id}`, file.data, { ...bytesHeaders, file_offset: "0" });
  if (typeof done.h !== "string" || !done.h) throw new GraphError("the upload answered no file handle", 502, 0, "No upload handle");
  return done.h;
}

export const qs = (p: Record<string, string | number | undefined>) =>
  Object.entries(p)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");

const arr = (v: unknown) => (Array.isArray(v) ? v : []) as Array<Record<string, unknown>>;

/**
 * Meta's Graph API: the templates of the business account `businessAccountId`; a sample goes
 * through the app `appIdOf(s)` with the token `tokenOf(s)`.
 */
export function metaTemplateApi<S extends CloudSettings>(app: { appIdOf(s: S): string; tokenOf(s: S): string }): TemplateApi<S> {
  const path = (s: S) => `/${encodeURIComponent(s.businessAccountId)}/message_templates`;
  return {
    async list(graph, s, p) {
      const res = await graph.call<{ data?: unknown; paging?: { cursors?: { after?: unknown }; next?: unknown } }>("GET", `${path(s)}?${qs({ fields: TEMPLATE_FIELDS, limit: p.limit, after: p.after, status: p.status })}`);
      // Meta gives `paging.next` only when there is a page after this one.
      const after = res.paging?.cursors?.after;
      return { data: arr(res.data), next: res.paging?.next && typeof after === "string" && after ? after : null };
    },
    async byName(graph, s, name) {
      const res = await graph.call<{ data?: unknown }>("GET", `${path(s)}?${qs({ fields: TEMPLATE_FIELDS, name, limit: 100 })}`);
      // Meta's name filter matches parts of names: only the exact name counts.
      return arr(res.data).filter((t) => t.name === name);
    },
    create: (graph, s, body) => graph.call<{ id?: unknown; status?: unknown }>("POST", path(s), body),
    async delete(graph, s, name, id) {
      const res = await graph.call<{ success?: unknown }>("DELETE", `${path(s)}?${qs({ name, hsm_id: id })}`);
      return res.success === true;
    },
    uploadSample: (graph, s, file) => resumableUpload(graph, `/${encodeURIComponent(app.appIdOf(s))}/uploads`, { authorization: `OAuth ${app.tokenOf(s)}` }, file),
  };
}
