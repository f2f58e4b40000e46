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
 * Where the templates live and how the provider lists them is the provider's (template-api.ts).
 */
import { PluginError, TEMPLATE_HEADER_FILE_TYPES, templateProblems, type ChannelTemplate, type ConnectionRef, type TemplateCreateParams, type TemplateCreateResult, type TemplateDeleteResult, type TemplatesListParams, type TemplatesListResult, type TemplateStatus } from "@openatende/plugin-sdk";
import { Errors } from "moleculer";
import type { CloudChannel, Live } from "./channel";
import { credentialsDetail, needsCredentials, notConnected } from "./failures";
import { GraphError, type FilePart } from "./graph";
import { codeOf, redact, WABA_CODES } from "./provider";
import { metaTemplateBody, templateFromMeta } from "./template-meta";
import { sampleProblem } from "./template-sample";

/** How long a template's definition read for a send is reused (its buttons' kinds do not change once approved). */
const DEFINITION_TTL_MS = 10 * 60_000;

/** A refusal of a template call as the catalogue's error (`codes`: the plugin's prefix). */
export function templateError(err: unknown, codes: string = WABA_CODES): Error {
  if (!(err instanceof GraphError)) return err as Error;
  const data = { code: err.code || err.httpStatus, title: err.title, ...(err.extra.details ? { details: err.extra.details } : {}) };
  if (needsCredentials(err)) return new PluginError(credentialsDetail(codes), 403, data);
  if (err.throttled) return new PluginError(codeOf(codes, "RATE_LIMITED"), 429, data);
  if (err.unreachable || err.httpStatus >= 500) return new PluginError(codeOf(codes, "UNREACHABLE"), 503, data);
  return new PluginError(codeOf(codes, "TEMPLATE_REFUSED"), 422, data);
}

export class Templates {
  private readonly definitions = new Map<string, { at: number; template: ChannelTemplate | null }>();

  constructor(private readonly channel: CloudChannel) {}

  private get codes(): string {
    return this.channel.provider.codes;
  }

  private get api() {
    return this.channel.provider.templates;
  }

  /** The connected connection of this tenant, or 404 (another tenant's id included). */
  liveOf(ref: ConnectionRef): Live {
    const l = this.channel.liveOf(ref);
    if (!l) throw new Errors.MoleculerClientError(`No connected WhatsApp connection ${ref.connectionId}`, 404, "ERR_CONNECTION_NOT_FOUND", { connectionId: ref.connectionId });
    if (l.status === "disconnected") throw notConnected(ref.connectionId, l.detail ?? "it is disconnected");
    return l;
  }

  async list(p: TemplatesListParams): Promise<TemplatesListResult> {
    const l = this.liveOf(p);
    const page = await this.call(l, () => this.api.list(l.graph, l.settings, { limit: p.limit ?? 50, after: p.after, status: p.status }));
    return { templates: page.data.map(templateFromMeta), next: page.next };
  }

  /**
   * Submits a template; a media header's sample file, when given, is checked and uploaded
   * first and the template names its handle (template-sample.ts). A media header needs a
   * sample (a file here, or the handle of one uploaded before).
   */
  async create(p: TemplateCreateParams, sample?: FilePart): Promise<TemplateCreateResult> {
    const problems = templateProblems(p.template);
    if (problems.length) {
      const [first] = problems;
      throw new PluginError(codeOf(this.codes, "TEMPLATE_INVALID"), 400, { field: `template.${first.field}`, reason: first.reason, problems });
    }
    const header = p.template.header;
    if (sample) {
      const wrong = sampleProblem(this.codes, header?.format ?? "TEXT", sample);
      if (wrong) throw wrong;
    } else if (header && TEMPLATE_HEADER_FILE_TYPES[header.format] && !header.example?.length) {
      throw new PluginError(codeOf(this.codes, "TEMPLATE_SAMPLE_REQUIRED"), 400, { field: "template.header.example", format: header.format });
    }
    const l = this.liveOf(p);
    let template = p.template;
    if (sample && header) {
      const handle = await this.uploadSample(l, sample);
      template = { ...template, header: { format: header.format, example: [handle] } };
    }
    const res = await this.call(l, () => this.api.create(l.graph, l.settings, metaTemplateBody(template)));
    if (res.id === undefined) throw templateError(new GraphError("the API answered no template id", 502, 0, "No template id"), this.codes);
    return { id: String(res.id), status: statusOf(res.status) };
  }

  /** Deletes every language of `name`, or only the version `id`; a name (or id) the account does not have is 404. */
  async delete(p: ConnectionRef & { name: string; id?: string }): Promise<TemplateDeleteResult> {
    const l = this.liveOf(p);
    const found = await this.byName(l, p.name);
    if (!found.length || (p.id && !found.some((t) => t.id === p.id))) {
      throw new PluginError(codeOf(this.codes, "TEMPLATE_NOT_FOUND"), 404, { name: p.name, ...(p.id ? { id: p.id } : {}) });
    }
    const deleted = await this.call(l, () => this.api.delete(l.graph, l.settings, p.name, p.id));
    this.forget(l);
    return { deleted };
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
    const found = await this.call(l, () => this.api.byName(l.graph, l.settings, name));
    return found.map(templateFromMeta).filter((t) => t.name === name);
  }

  /** The sample's upload; a refusal is the file's (MEDIA_FAILED with the provider's words) unless it is the credentials, a throttle or an outage. */
  private async uploadSample(l: Live, file: FilePart): Promise<string> {
    try {
      return await this.api.uploadSample(l.graph, l.settings, file);
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      this.channel.opts.logger.warn(`connection ${l.ref.connectionId}: template sample upload refused: ${redact(err.message, l.settings)}`);
      const mapped = templateError(err, this.codes) as PluginError;
      if (mapped.type !== codeOf(this.codes, "TEMPLATE_REFUSED")) throw mapped;
      throw new PluginError(codeOf(this.codes, "MEDIA_FAILED"), 422, { code: err.code || err.httpStatus, title: err.title, reason: err.title });
    }
  }

  private forget(l: Live): void {
    for (const key of this.definitions.keys()) if (key.startsWith(`${l.ref.connectionId}:`)) this.definitions.delete(key);
  }

  private async call<T>(l: Live, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof GraphError) this.channel.opts.logger.warn(`connection ${l.ref.connectionId}: template call refused: ${redact(err.message, l.settings)}`);
      throw templateError(err, this.codes);
    }
  }
}

/** A provider's status word as the contract's (360dialog answers "submitted" for a template under review). */
export function statusOf(v: unknown): TemplateStatus {
  const s = typeof v === "string" ? v.toUpperCase() : "";
  return (s && s !== "SUBMITTED" ? s : "PENDING") as TemplateStatus;
}
