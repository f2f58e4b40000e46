/**
 * POST /messages/{ticketId}/template: an approved message template sent from the chat (the
 * only thing a channel with a customer-service window takes once it closed; Step 11). The
 * caller — the channel plugin's template picker — names the template, its language and the
 * values of its variables, and gives the text as filled, which is what the chat shows; the
 * channel builds the provider's payload from the name and components (contract 1.3).
 * Refused before anything is stored when the ticket's channel sends no templates.
 */
import type { ServiceSchema } from "moleculer";
import type { TemplateSendComponents } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import type { outgoingMessages } from "./outgoing";
import { storeFiles } from "../files/store";

type Actions = NonNullable<ServiceSchema["actions"]>;

/** A template language as the providers name it: "pt_BR", "en", "es_MX", "zh_CN". */
export const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2,4})?$/;

const variables = (max: number) => ({ type: "array", items: { type: "string", min: 1, max: 1024 }, max, optional: true });

const fileNames = { mimeType: { type: "string", min: 3, max: 120 }, fileName: { type: "string", min: 1, max: 255 } };

/**
 * The values of a template's variables (contract 1.3 TemplateSendComponents), as sent; `media`
 * is the file of an IMAGE, VIDEO or DOCUMENT header, in the form its caller has it: the chat
 * uploads its bytes (base64 `data`, stored before the send), a plugin names a file it stored
 * with platform.files.upload (`path`, checked to be the tenant's).
 */
function componentsRule(media: Record<string, unknown>) {
  return {
    type: "object",
    optional: true,
    strict: "remove",
    props: {
      header: { type: "object", optional: true, strict: "remove", props: { text: variables(1), media: { type: "object", optional: true, strict: "remove", props: { ...media, ...fileNames } } } },
      body: variables(100),
      buttons: { type: "array", optional: true, max: 10, items: { type: "object", strict: "remove", props: { index: { type: "number", integer: true, min: 0, max: 9 }, value: { type: "string", min: 1, max: 2000 } } } },
    },
  };
}
export const templateComponentsRule = componentsRule({ data: { type: "string", min: 1 } });
export const platformTemplateComponentsRule = componentsRule({ path: { type: "string", min: 1, max: 500 } });

type UploadedHeader = { data: string; mimeType: string; fileName: string };

export interface TemplateSendParams {
  ticketId: number;
  name: string;
  language: string;
  body: string;
  components?: TemplateSendComponents;
}

export function templateSendActions(outgoing: ReturnType<typeof outgoingMessages>, dataDir: string): Actions {
  return {
    sendTemplate: {
      rest: "POST /messages/:ticketId/template",
      access: "user",
      resource: "tickets",
      params: {
        ticketId: { type: "number", integer: true, positive: true, convert: true },
        // Meta's rules for a template's name and language code.
        name: { type: "string", min: 1, max: 512, pattern: /^[a-z0-9_]+$/ },
        // Its form (Meta's codes: "pt_BR", "en", "es_MX") is checked once the ticket is known to be the caller's.
        language: { type: "string", min: 2, max: 15 },
        body: { type: "string", min: 1, max: 4096 },
        components: templateComponentsRule,
      },
      async handler(ctx: Ctx<TemplateSendParams>) {
        const ticket = await call(ctx, "tickets.visible", { id: ctx.params.ticketId });
        if (ticket.status === "closed") throw new AppError("ERR_TICKET_NOT_FOUND", { reason: "closed" });
        if (!LANGUAGE.test(ctx.params.language)) throw new AppError("ERR_VALIDATION", { field: "language", rule: "stringPattern" });
        const { capabilities } = await outgoing.channelService(ctx, ticket.connectionId);
        if (!capabilities.includes("template")) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "name", kind: "template" });
        const { name, language } = ctx.params;
        // A header's file is stored first (the chat shows it; the channel uploads it to the provider).
        const upload = ctx.params.components?.header?.media as UploadedHeader | undefined;
        const [media] = upload ? storeFiles(dataDir, ticket.tenantId, [upload]) : [];
        const components = media ? { ...ctx.params.components, header: { ...ctx.params.components!.header, media } } : ctx.params.components;
        const sent = await outgoing.sendOne(ctx, ticket, { body: ctx.params.body.trim(), ...(media ? { media } : {}), template: { name, language, ...(components ? { components } : {}) } });
        ctx.meta.$statusCode = 201;
        return sent;
      },
    },
  };
}
