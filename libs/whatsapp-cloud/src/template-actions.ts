/**
 * The contract's optional template actions (manifest `platform.channel.templates: true`,
 * contract 1.3), called by the core for one tenant's connection, and `templateStatuses`: what
 * Meta's review webhooks said of the connection's templates (template-status.ts), for the
 * template screen and the composer's picker through the core.
 *
 * Params are checked here like the contract's other actions (a malformed template is a
 * VALIDATION_ERROR before anything else); a well-formed one that breaks spec §5's rules is
 * `<codes>_TEMPLATE_INVALID` naming the field (templates.ts).
 */
import type { Context } from "moleculer";
import {
  TEMPLATE_BUTTON_TYPES,
  TEMPLATE_CATEGORIES,
  TEMPLATE_HEADER_FORMATS,
  TEMPLATE_STATUSES,
  type ConnectionRef,
  type TemplateCreateParams,
  type TemplateCreateResult,
  type TemplateDeleteParams,
  type TemplateDeleteResult,
  type TemplatesListParams,
  type TemplatesListResult,
} from "@openatende/plugin-sdk";
import type { CloudChannel } from "./channel";
import { templateSampleActions } from "./template-sample";
import type { TemplateStatusRecord, TemplateStatusStore } from "./template-status";

const id = { type: "number", integer: true, positive: true } as const;
const ref = { tenantId: id, connectionId: id };
const NAME = { type: "string", pattern: /^[a-z0-9_]{1,512}$/, messages: { stringPattern: "a template name is lower-case letters, digits and _ (at most 512)" } } as const;
const examples = (max: number) => ({ type: "array", optional: true, max: 20, items: { type: "string", min: 1, max } }) as const;

export const templateParams = {
  type: "object",
  props: {
    name: NAME,
    language: { type: "string", pattern: /^[a-z]{2,3}(_[A-Z]{2,4})?$/, messages: { stringPattern: "a language code as Meta writes it (pt_BR, en_US, es)" } },
    category: { type: "enum", values: [...TEMPLATE_CATEGORIES] },
    header: {
      type: "object",
      optional: true,
      props: { format: { type: "enum", values: [...TEMPLATE_HEADER_FORMATS] }, text: { type: "string", optional: true, max: 60 }, example: examples(2000) },
    },
    body: { type: "object", props: { text: { type: "string", min: 1, max: 1024 }, example: examples(1024) } },
    footer: { type: "object", optional: true, props: { text: { type: "string", min: 1, max: 60 } } },
    buttons: {
      type: "array",
      optional: true,
      max: 10,
      items: {
        type: "object",
        props: {
          type: { type: "enum", values: [...TEMPLATE_BUTTON_TYPES] },
          text: { type: "string", max: 25 },
          url: { type: "string", optional: true, max: 2000 },
          phoneNumber: { type: "string", optional: true, max: 20 },
          example: examples(2000),
        },
      },
    },
  },
} as const;

type Ctx<P> = Context<P>;
const channelOf = (svc: any): CloudChannel => svc.channel as CloudChannel;
/** The business account of the tenant's connected connection (404 for another tenant's). */
const accountOf = (svc: any, ref: ConnectionRef) => ({ tenantId: ref.tenantId, businessAccountId: channelOf(svc).templates.liveOf(ref).settings.businessAccountId });

/** The contract's template actions, and the plugin's route for a template with its media header's sample (template-sample.ts). */
export const templateActionsOf = (pluginId: string, codes: string) => ({
  ...templateActions,
  ...templateSampleActions(pluginId, codes, templateParams, (svc, p, sample) => channelOf(svc).templates.create(p, sample)),
});

export const templateActions = {
  templatesList: {
    params: {
      ...ref,
      after: { type: "string", optional: true, min: 1, max: 500 },
      limit: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
      status: { type: "enum", values: [...TEMPLATE_STATUSES], optional: true },
    },
    handler(this: any, ctx: Ctx<TemplatesListParams>): Promise<TemplatesListResult> {
      return channelOf(this).templates.list(ctx.params);
    },
  },
  templateCreate: {
    params: { ...ref, template: templateParams },
    handler(this: any, ctx: Ctx<TemplateCreateParams>): Promise<TemplateCreateResult> {
      return channelOf(this).templates.create(ctx.params);
    },
  },
  templateDelete: {
    params: { ...ref, name: NAME, id: { type: "string", optional: true, pattern: /^[0-9]{1,30}$/ } },
    async handler(this: any, ctx: Ctx<TemplateDeleteParams>): Promise<TemplateDeleteResult> {
      const p = ctx.params;
      const res = await channelOf(this).templates.delete(p);
      // The recorded review statuses of what was deleted go too.
      const store = this.templateStatuses as TemplateStatusStore;
      const account = accountOf(this, p);
      const gone = (await store.list(account)).filter((r) => r.name === p.name && (!p.id || r.id === p.id)).map((r) => r.id);
      await store.forget(account, gone);
      return res;
    },
  },
  /** The review statuses Meta's webhooks reported for the templates of a connection's business account (a connected connection of the tenant, else 404). */
  templateStatuses: {
    visibility: "public" as const,
    params: { ...ref },
    async handler(this: any, ctx: Ctx<ConnectionRef>): Promise<{ statuses: TemplateStatusRecord[] }> {
      return { statuses: await (this.templateStatuses as TemplateStatusStore).list(accountOf(this, ctx.params)) };
    },
  },
};
