/**
 * A connection's message templates at Meta (contract 1.3's templatesList / templateCreate /
 * templateDelete): they live in the connection's WhatsApp Business Account,
 * `/<WABA id>/message_templates`, called with the connection's own token. Only a connected
 * connection of the asking tenant answers (another tenant's id is not found, like any other).
 *
 * A new template is checked with the contract's templateProblems first (spec §5: the
 * variables of header and body match their examples), so the admin reads which field is
 * wrong instead of Meta's review refusing it a day later. Meta answers it PENDING; its review
 * comes back as a `message_template_status_update` webhook (template-status.ts).
 *
 * How channel-360 reuses it: the path is the only Cloud API detail here (`templatesPath`);
 * a BSP with another path overrides it.
 */
import { PluginError, templateProblems, type ChannelTemplate, type ConnectionRef, type TemplateCreateParams, type TemplateCreateResult, type TemplateDeleteResult, type TemplatesListParams, type TemplatesListResult, type TemplateStatus } from "@openatende/plugin-sdk";
import { Errors } from "moleculer";
import type { Live, WabaChannel } from "./channel";
import { needsCredentials, notConnected, CREDENTIALS_DETAIL } from "./failures";
import { GraphError } from "./graph";
import { metaTemplateBody, TEMPLATE_FIELDS, templateFromMeta } from "./template-meta";
import { redact } from "./settings";

/** How long a template's definition read for a send is reused (its buttons' kinds do not change once approved). */
const DEFINITION_TTL_MS = 10 * 60_000;

export function templatesPath(l: Live): string {
  return `/${encodeURIComponent(l.settings.businessAccountId)}/message_templates`;
}

const qs = (p: Record<string, string | number | undefined>) =>
  Object.entries(p)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");

/** A Meta refusal of a template call as the catalogue's error. */
export function templateError(err: unknown): Error {
  if (!(err instanceof GraphError)) return err as Error;
  const data = { code: err.code || err.httpStatus, title: err.title, ...(err.extra.details ? { details: err.extra.details } : {}) };
  if (needsCredentials(err)) return new PluginError(CREDENTIALS_DETAIL, 403, data);
  if (err.throttled) return new PluginError("ERR_WABA_RATE_LIMITED", 429, data);
  if (err.unreachable || err.httpStatus >= 500) return new PluginError("ERR_WABA_UNREACHABLE", 503, data);
  return new PluginError("ERR_WABA_TEMPLATE_REFUSED", 422, data);
}

export class Templates {
  private readonly definitions = new Map<string, { at: number; template: ChannelTemplate | null }>();

  constructor(private readonly channel: WabaChannel) {}

  /** The connected connection of this tenant, or 404 (another tenant's id included). */
  liveOf(ref: ConnectionRef): Live {
    const l = this.channel.liveOf(ref);
    if (!l) throw new Errors.MoleculerClientError(`No connected WhatsApp (official API) connection ${ref.connectionId}`, 404, "ERR_CONNECTION_NOT_FOUND", { connectionId: ref.connectionId });
    if (l.status === "disconnected") throw notConnected(ref.connectionId, l.detail ?? "it is disconnected");
    return l;
  }

  async list(p: TemplatesListParams): Promise<TemplatesListResult> {
    const l = this.liveOf(p);
    const query = qs({ fields: TEMPLATE_FIELDS, limit: p.limit ?? 50, after: p.after, status: p.status });
    const res = await this.call(l, () => l.graph.call<{ data?: unknown; paging?: { cursors?: { after?: unknown }; next?: unknown } }>("GET", `${templatesPath(l)}?${query}`));
    const data = (Array.isArray(res.data) ? res.data : []) as Array<Record<string, unknown>>;
    // Meta gives `paging.next` only when there is a page after this one.
    const after = res.paging?.cursors?.after;
    return { templates: data.map(templateFromMeta), next: res.paging?.next && typeof after === "string" && after ? after : null };
  }

  async create(p: TemplateCreateParams): Promise<TemplateCreateResult> {
    const problems = templateProblems(p.template);
    if (problems.length) {
      const [first] = problems;
      throw new PluginError("ERR_WABA_TEMPLATE_INVALID", 400, { field: `template.${first.field}`, reason: first.reason, problems });
    }
    const l = this.liveOf(p);
    const res = await this.call(l, () => l.graph.call<{ id?: unknown; status?: unknown }>("POST", templatesPath(l), metaTemplateBody(p.template)));
    if (res.id === undefined) throw templateError(new GraphError("the API answered no template id", 502, 0, "No template id"));
    return { id: String(res.id), status: (typeof res.status === "string" ? res.status.toUpperCase() : "PENDING") as TemplateStatus };
  }

  /** Deletes every language of `name`, or only the version `id`; a name (or id) the account does not have is 404. */
  async delete(p: ConnectionRef & { name: string; id?: string }): Promise<TemplateDeleteResult> {
    const l = this.liveOf(p);
    const found = await this.byName(l, p.name);
    if (!found.length || (p.id && !found.some((t) => t.id === p.id))) {
      throw new PluginError("ERR_WABA_TEMPLATE_NOT_FOUND", 404, { name: p.name, ...(p.id ? { id: p.id } : {}) });
    }
    const res = await this.call(l, () => l.graph.call<{ success?: unknown }>("DELETE", `${templatesPath(l)}?${qs({ name: p.name, hsm_id: p.id })}`));
    this.forget(l);
    return { deleted: res.success === true };
  }

  /** The template `name` in `language` as Meta holds it (for a send's button kinds), cached a while; null when absent. */
  async definition(l: Live, name: string, language: string): Promise<ChannelTemplate | null> {
    const key = `${l.ref.connectionId}:${name}:${language}`;
    const known = this.definitions.get(key);
    if (known && Date.now() - known.at < DEFINITION_TTL_MS) return known.template;
    const template = (await this.byName(l, name)).find((t) => t.language === language) ?? null;
    this.definitions.set(key, { at: Date.now(), template });
    return template;
  }

  private async byName(l: Live, name: string): Promise<ChannelTemplate[]> {
    const res = await this.call(l, () => l.graph.call<{ data?: unknown }>("GET", `${templatesPath(l)}?${qs({ fields: TEMPLATE_FIELDS, name, limit: 100 })}`));
    // Meta's name filter matches parts of names: only the exact name counts.
    return ((Array.isArray(res.data) ? res.data : []) as Array<Record<string, unknown>>).map(templateFromMeta).filter((t) => t.name === name);
  }

  private forget(l: Live): void {
    for (const key of this.definitions.keys()) if (key.startsWith(`${l.ref.connectionId}:`)) this.definitions.delete(key);
  }

  private async call<T>(l: Live, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof GraphError) this.channel.opts.logger.warn(`connection ${l.ref.connectionId}: template call refused: ${redact(err.message, l.settings)}`);
      throw templateError(err);
    }
  }
}
