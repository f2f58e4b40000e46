/**
 * Where a provider keeps a number's message templates and how it answers (templates.ts does
 * the rest: checks, errors, the definition cache). Meta's Cloud API: `/<WABA id>/message_templates`
 * with cursor paging and `fields=`; a BSP in front of it (360dialog) has its own paths and list shape.
 */
import type { GraphClient } from "./graph";
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
}

export const qs = (p: Record<string, string | number | undefined>) =>
  Object.entries(p)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");

const arr = (v: unknown) => (Array.isArray(v) ? v : []) as Array<Record<string, unknown>>;

/** Meta's Graph API: the templates of the business account `businessAccountId`. */
export function metaTemplateApi<S extends CloudSettings>(): TemplateApi<S> {
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
  };
}
