import * as fs from "node:fs";
import * as path from "node:path";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import { checkContentType, CONTENT_HEAD_BYTES, resolveStored, type StoredFile } from "../files/store";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { view, type defineMessage } from "./model";
import type { outgoingMessages, SendChannel, SendTicket } from "./outgoing";
import { platformSendMediaRule, type MessagesActions, type MessageView, type PlatformSendParams as SendParams } from "./contract";
import { LANGUAGE, platformTemplateComponentsRule } from "./template-send";

type Actions = NonNullable<ServiceSchema["actions"]>;
/** How long after its close a ticket still takes the automation's closing texts (by the machine's clock, which wrote closedAt). */
const JUST_CLOSED_MS = 10 * 60_000;
const id = { type: "number", integer: true, positive: true };

/** What every send of a plugin may carry, on top of where it goes. */
const sendParams = {
  body: { type: "string", max: 65536 },
  // Checked in full by storedOf.
  media: platformSendMediaRule,
  // An approved template (contract 1.3); body is its text as the chat shows it.
  template: {
    type: "object",
    optional: true,
    strict: "remove",
    props: { name: { type: "string", min: 1, max: 512, pattern: /^[a-z0-9_]+$/ }, language: { type: "string", min: 2, max: 15 }, components: platformTemplateComponentsRule },
  },
  // `<plugin id>:<key>`, made by the platform service from the plugin's own key.
  idempotencyKey: { type: "string", optional: true, min: 3, max: 191 },
};

/**
 * What the core API of plugins (core/src/platform) asks of messages: a page of a ticket's
 * messages, and a send through the ticket's connection by the way an agent's message goes
 * (outgoing.ts sendOne: stored pending, handed to the channel or to the outbox, acks after),
 * without an agent: no user on the message, no signature. The platform service has checked
 * that the calling plugin acts for the tenant; a ticket of another tenant is not found. A
 * media message names a file of the tenant's (platform.files.upload): anything else — another
 * tenant's file, a path out of its folder, one that does not exist — is ERR_VALIDATION {field: "media"}.
 */
export function platformMessageActions(model: ReturnType<typeof defineMessage>, outgoing: ReturnType<typeof outgoingMessages>, dataDir: string): Actions {
  async function ticketOf(ctx: Ctx, tenantId: number, ticketId: number) {
    const ticket = await call(ctx, "tickets.getInternal", { tenantId, id: ticketId });
    if (!ticket) throw new AppError("ERR_TICKET_NOT_FOUND", { id: ticketId });
    return ticket;
  }

  /** The tenant's stored file a media message names, with its size; its declared type checked against its first bytes. */
  async function storedOf(tenantId: number, media: { path: string; mimeType: string; fileName: string }): Promise<StoredFile> {
    const refused = (reason: string) => new AppError("ERR_VALIDATION", { field: "media", reason });
    let full: string;
    try {
      full = resolveStored(dataDir, tenantId, media.path);
    } catch {
      throw refused("not the tenant's file");
    }
    const fh = await fs.promises.open(full, "r").catch(() => null);
    if (!fh) throw refused("no such file");
    try {
      const stat = await fh.stat();
      if (!stat.isFile() || !stat.size) throw refused("no such file");
      const head = Buffer.alloc(Math.min(CONTENT_HEAD_BYTES, stat.size));
      await fh.read(head, 0, head.length, 0);
      const mimeType = checkContentType(head, media.mimeType, "media.mimeType");
      return { path: path.relative(dataDir, full), fileName: media.fileName, mimeType, size: stat.size };
    } finally {
      await fh.close();
    }
  }

  /**
   * The send itself, as the plugin (no agent: no user on the message, no signature). A
   * connection whose plugin the tenant may not use now takes nothing, as for an agent. A
   * template goes only to a channel that sends them. The key (`<plugin id>:<key>`, made by the
   * platform service) makes a retried send answer the first message (outgoing.ts sentBefore).
   * `to`: the contact's address on the ticket's connection, when the caller has read it.
   */
  async function sendAsPlugin(ctx: Ctx, ticket: SendTicket, p: SendParams, to?: string): Promise<MessageView> {
    const body = p.body.trim();
    if (!body && !p.media) throw new AppError("ERR_REQUIRED_BODY", { field: "body" });
    if (p.template && !LANGUAGE.test(p.template.language)) throw new AppError("ERR_VALIDATION", { field: "template.language", rule: "stringPattern" });
    let channel: SendChannel | null = null;
    if (ticket.connectionId) {
      channel = await outgoing.channelService(ctx, ticket.connectionId).catch((err: { type?: string }) => {
        if (err.type === "ERR_CONNECTION_INACTIVE") throw err;
        return null;
      });
      if (p.template && channel && !channel.capabilities.includes("template")) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "template", kind: "template" });
    }
    const agentless = ctx.meta.user ? Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx, { meta: { ...ctx.meta, user: undefined } }) : ctx;
    // A template's header file is the tenant's stored one (platform.files.upload); it is also what the chat shows.
    const headerFile = p.template?.components?.header?.media as { path: string; mimeType: string; fileName: string } | undefined;
    const header = headerFile ? await storedOf(ticket.tenantId, headerFile) : undefined;
    const media = p.media && !p.template ? await storedOf(ticket.tenantId, p.media) : header;
    const components = header ? { ...p.template!.components, header: { ...p.template!.components!.header, media: header } } : p.template?.components;
    const template = p.template ? { name: p.template.name, language: p.template.language, ...(components ? { components } : {}) } : undefined;
    return outgoing.sendOne(agentless, ticket, { body, ...(media ? { media } : {}), ...(template ? { template } : {}), ...(p.idempotencyKey ? { idempotencyKey: p.idempotencyKey } : {}) }, { channel, to });
  }

  return {
    /** messages.query: newest first (by the channel's time, then id). */
    query: {
      visibility: "public",
      params: { tenantId: id, ticketId: id, offset: { type: "number", integer: true, min: 0, max: 1_000_000 }, limit: { type: "number", integer: true, min: 1, max: 100 } },
      async handler(ctx: Ctx<MessagesActions["messages.query"]["params"]>): Promise<MessagesActions["messages.query"]["result"]> {
        const { tenantId, ticketId, offset, limit } = ctx.params;
        await ticketOf(ctx, tenantId, ticketId);
        const where = { tenantId, ticketId };
        const [count, rows] = await Promise.all([model.count({ where }), model.findAll({ where, order: [["providerTs", "DESC"], ["id", "DESC"]], offset, limit })]);
        return { rows: rows.map(view), count, hasMore: offset + rows.length < count };
      },
    },

    /** messages.one: one message of the tenant's (its status now: a campaign whose ack came before it recorded the send); null when unknown. */
    one: {
      visibility: "public",
      params: { tenantId: id, id },
      async handler(ctx: Ctx<MessagesActions["messages.one"]["params"]>): Promise<MessagesActions["messages.one"]["result"]> {
        const m = await model.findOne({ where: { id: ctx.params.id, tenantId: ctx.params.tenantId } });
        return m ? view(m) : null;
      },
    },

    /** messages.platformSend: a text, a file or a template through the ticket's connection, as the plugin. */
    platformSend: {
      visibility: "public",
      // `afterClose` is internal (the platform service's route never passes it): the
      // automation's farewell and closing texts go to the ticket it or an agent has just
      // closed. Sending them after the close, rather than before it in the close path, keeps
      // the close itself free of channel calls and lets the claim (core/src/automation)
      // decide once whether they go.
      params: { tenantId: id, ticketId: id, afterClose: { type: "boolean", optional: true }, ...sendParams },
      async handler(ctx: Ctx<MessagesActions["messages.platformSend"]["params"]>): Promise<MessagesActions["messages.platformSend"]["result"]> {
        const ticket = await ticketOf(ctx, ctx.params.tenantId, ctx.params.ticketId);
        const justClosed = ctx.params.afterClose && ticket.closedAt && Date.now() - new Date(ticket.closedAt).getTime() < JUST_CLOSED_MS;
        if (ticket.status === "closed" && !justClosed) throw new AppError("ERR_TICKET_NOT_FOUND", { id: ticket.id, reason: "closed" });
        return sendAsPlugin(ctx, ticket, ctx.params);
      },
    },

    /**
     * messages.platformSendTo: the same, to a contact on a connection (a scheduled message, a
     * campaign's contact): through the contact's active ticket there, or one opened for it —
     * pending (`ticket: "active"`, the default: the conversation shows in the waiting list) or,
     * with `ticket: "closed"`, the contact's newest closed ticket there (made closed when there
     * is none), so a mass send leaves no open tickets and a reply opens one as usual.
     */
    platformSendTo: {
      visibility: "public",
      params: { tenantId: id, contactId: id, connectionId: id, ticket: { type: "enum", values: ["active", "closed"], optional: true }, ...sendParams },
      async handler(ctx: Ctx<MessagesActions["messages.platformSendTo"]["params"]>): Promise<MessagesActions["messages.platformSendTo"]["result"]> {
        const { tenantId, contactId, connectionId } = ctx.params;
        // The connection as every send reads it (outgoing.ts: cached, dropped when it changes).
        const connection = await outgoing.connectionOf(ctx, connectionId);
        if (!connection || connection.tenantId !== tenantId) {
          // An unknown contact is named first, as it always was.
          if (!(await call(ctx, "contacts.getInternal", { tenantId, id: contactId }))) throw new AppError("ERR_CONTACT_NOT_FOUND", { id: contactId });
          throw new AppError("ERR_CONNECTION_NOT_FOUND", { id: connectionId });
        }
        // The contact's address on this channel, which is also what the send hands the channel. An
        // address is only found for a contact of the tenant's (its identities go with it), so the
        // contact itself is read only when there is none: unknown, or a contact with no address on
        // this channel (a web chat visitor on WhatsApp…), refused before any ticket is opened for it.
        const to = await call(ctx, "contacts.identityFor", { tenantId, contactId, channelType: connection.type });
        if (!to) {
          const contact = await call(ctx, "contacts.getInternal", { tenantId, id: contactId });
          if (!contact) throw new AppError("ERR_CONTACT_NOT_FOUND", { id: contactId });
          throw new AppError("ERR_CONTACT_NUMBER_INVALID", { field: "contactId" });
        }
        // The active ticket's row as findActive reads it is all a send needs of it (SendTicket).
        const active = await call(ctx, "tickets.findActive", { tenantId, contactId, connectionId });
        const ticket = active ?? (await call(ctx, "tickets.openForInbound", { tenantId, contactId, connectionId, fromMe: true, ...(ctx.params.ticket === "closed" ? { closed: true } : {}) })).ticket;
        return sendAsPlugin(ctx, ticket, ctx.params, to);
      },
    },
  };
}
