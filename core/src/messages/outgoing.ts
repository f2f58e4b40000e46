import { UniqueConstraintError } from "sequelize";
import type { Service } from "moleculer";
import { callChannel, type OutboundMessage, type TemplateSendComponents } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import type { TicketRow } from "../tickets/model";
import type { ConnectionRow } from "../connections/contract";
import { TtlCache } from "../lib/ttl-cache";
import { call } from "../bus/call";
import { mediaTypeOf, StoredFile } from "../files/store";
import { isPluginAway, reasonOf } from "../channels/outbox-contract";
import { emitMessage as emit, Message, MessageRow, STATUS_RANK, view } from "./model";

/** Why a connection's plugin may not be used now (plugins.channelFor with a tenant): its sends are refused as ERR_CONNECTION_INACTIVE. */
const STOPPED_BY = ["ERR_PLUGIN_NOT_ALLOWED", "ERR_PLUGIN_DISABLED", "ERR_LICENSE_TIER_REQUIRED", "ERR_PLUGIN_VERSION_UNAVAILABLE"];

/**
 * The way out of an agent's message: recorded first (pending), handed to the connection's
 * channel plugin, or put in the outbox while the plugin is away, and the outcome recorded
 * either way; edits, reactions and deletions of sent messages follow the same road; read
 * receipts go to channels that declare them.
 */
/** What an outgoing message carries: text, a file (or sticker), a quote, or an approved template. */
export interface OutgoingContent {
  body: string;
  media?: StoredFile & { url?: string };
  quoted?: MessageRow | null;
  sticker?: boolean;
  template?: { name: string; language: string; components?: TemplateSendComponents };
  /** A plugin send's key, `<plugin id>:<key>` (platform.ts): the same key twice makes one message. */
  idempotencyKey?: string;
}

/**
 * How long a keyed message may stay pending, not waiting in the outbox, before a send with its
 * key hands it over again: longer than any live hand-over takes (the channel call's timeout),
 * so only a send cut short between record and hand-over (a crash, a restart) is resumed.
 */
export const STALE_KEYED_SEND_MS = 2 * 60_000;

/** What a send needs of its connection: which tenant's, which channel, which major. */
export type SendConnection = Pick<ConnectionRow, "id" | "tenantId" | "type" | "pluginMajor">;

/** What a send needs of its ticket: where it goes, and who may see the message (emitMessage). findActive's row is enough. */
export type SendTicket = Pick<TicketRow, "id" | "tenantId" | "contactId" | "connectionId" | "status" | "userId" | "queueId" | "isGroup">;

/** The channel a send goes through, as channelService answers it. */
export type SendChannel = { service: string; connection: SendConnection; receipts?: boolean; capabilities: readonly string[] };

/**
 * What the caller of sendOne already knows, so the send does not ask again: the channel it
 * resolved for its own checks a moment before (its plugin and major), and the contact's
 * address on that channel. Only used when it is the ticket's own connection.
 */
export interface SendVia {
  channel?: SendChannel | null;
  to?: string | null;
}

/** A connection stays this long at most in a process's cache (a safety net: its changes drop it at once). */
const CONNECTION_TTL_MS = 30_000;

export function outgoingMessages(deps: CoreDeps, model: typeof Message, logger: () => Service["logger"]) {
  /**
   * Connections by id, per process, as a send needs them (every send names its ticket's
   * connection, whose tenant, type and major change rarely). `connections.changed` (create,
   * update, delete, a new pinned major) drops the entry on every node (forgetConnection, from
   * the messages service's handler in a group of its own). Only found connections are kept.
   */
  const connections = new TtlCache<number, SendConnection | null>(CONNECTION_TTL_MS, 10_000, (row) => row !== null);

  function connectionOf(ctx: Ctx, connectionId: number): Promise<SendConnection | null> {
    return connections.get(connectionId, async () => {
      const row = await call(ctx, "connections.getInternal", { id: connectionId });
      return row ? { id: row.id, tenantId: row.tenantId, type: row.type, pluginMajor: row.pluginMajor ?? null } : null;
    });
  }

  /** A connection changed (or every one, without an id): its next send reads it again. */
  function forgetConnection(connectionId?: number): void {
    if (connectionId) connections.dropKey(connectionId);
    else connections.drop();
  }

  /** The connection's channel service, while the tenant may use its plugin (ERR_CONNECTION_INACTIVE otherwise). */
  async function channelService(ctx: Ctx, connectionId: number | null): Promise<SendChannel> {
    if (!connectionId) throw new AppError("ERR_NO_DEFAULT_CONNECTION");
    const connection = await connectionOf(ctx, connectionId);
    if (!connection) throw new AppError("ERR_CONNECTION_NOT_FOUND");
    // The connection's own major, and only while the tenant may use the plugin.
    const plugin = await call(ctx, "plugins.channelFor", { type: connection.type, tenantId: connection.tenantId, major: connection.pluginMajor ?? undefined }).catch((err: { type?: string }) => {
      if (err.type && STOPPED_BY.includes(err.type)) throw new AppError("ERR_CONNECTION_INACTIVE", { connectionId: connection.id, reason: err.type });
      throw err;
    });
    return { service: plugin.service, connection, receipts: plugin.receipts === true, capabilities: plugin.capabilities ?? [] };
  }

  async function contactExternalId(ctx: Ctx, tenantId: number, contactId: number, connectionType: string): Promise<string> {
    const id = await call(ctx, "contacts.identityFor", { tenantId, contactId, channelType: connectionType });
    if (!id) throw new AppError("ERR_CONTACT_NUMBER_INVALID", { field: "contactId" });
    return id;
  }

  /** Hands the provider ids read to the connection's channel, when its plugin declares receipts. */
  async function sendReceipts(ctx: Ctx, ticket: TicketRow, connectionId: number, providerMessageIds: string[]): Promise<void> {
    const { service, connection, receipts } = await channelService(ctx, connectionId);
    if (!receipts || connection.tenantId !== ticket.tenantId) return;
    const externalId = await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
    await callChannel(ctx, service, "markRead", { tenantId: ticket.tenantId, connectionId, to: { externalId }, providerMessageIds });
  }

  /**
   * Records what a send answered (its provider id, its status). A channel may report the
   * platform's own send back as written on the account's phone (fromMe, no user) before
   * this answer is recorded, and that echo then holds the provider id: it is this very
   * message, so it goes (its furthest status kept) and this message takes the id. Another
   * message holding the id keeps it; only the status is recorded here.
   */
  async function recordSend(ctx: Ctx, row: Message, patch: Partial<MessageRow>): Promise<void> {
    try {
      await row.update(patch);
      return;
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
    }
    const mine = row.get({ plain: true }) as MessageRow;
    const echo = patch.providerId ? await model.findOne({ where: { tenantId: mine.tenantId, connectionId: mine.connectionId, providerId: patch.providerId } }) : null;
    const e = echo?.get({ plain: true }) as MessageRow | undefined;
    if (!echo || !e || !e.fromMe || e.userId !== null || e.ticketId !== mine.ticketId || e.id === mine.id) {
      if (patch.status) await row.update({ status: patch.status });
      return;
    }
    const status = patch.status ?? mine.status;
    const furthest = (STATUS_RANK[e.status] ?? -1) > (STATUS_RANK[status] ?? -1) ? e.status : status;
    await deps.sequelize.transaction(async (transaction) => {
      await echo.destroy({ transaction });
      await row.update({ ...patch, status: furthest }, { transaction });
    });
    const ticket = await call(ctx, "tickets.getInternal", { tenantId: mine.tenantId, id: mine.ticketId });
    if (ticket) await emit(ctx, ticket, "delete", view(e));
  }

  async function loadOwnedMessage(ctx: Ctx, id: number): Promise<{ msg: MessageRow; ticket: TicketRow }> {
    const tenantId = ctx.meta.user!.tenantId;
    const m = await model.findOne({ where: { id, tenantId } });
    if (!m) throw new AppError("ERR_MESSAGE_NOT_FOUND", { id });
    const msg = m.get({ plain: true }) as MessageRow;
    let ticket: TicketRow;
    try {
      ticket = await call(ctx, "tickets.visible", { id: msg.ticketId });
    } catch {
      throw new AppError("ERR_MESSAGE_NOT_FOUND", { id });
    }
    return { msg, ticket };
  }

  /**
   * Hands a change of a message already sent (edit, reaction, deletion) to its channel. No
   * messageId: that keys the message's own send, which this is not. When the plugin is away
   * (or an earlier change of the message still waits), the change waits in the outbox and
   * goes out when the plugin is back; the platform shows it at once either way.
   */
  async function relayChange(ctx: Ctx, ticket: TicketRow, msg: MessageRow, op: "edit" | "reaction" | "delete", message: OutboundMessage): Promise<void> {
    let away: unknown = null;
    try {
      if (await call(ctx, "outbox.waits", { connectionId: msg.connectionId!, messageId: msg.id })) away = "ERR_OUTBOX_WAITING";
      else {
        const { service, connection } = await channelService(ctx, msg.connectionId);
        const to = await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
        await callChannel(ctx, service, "send", { tenantId: ticket.tenantId, connectionId: connection.id, to: { externalId: to }, message });
        return;
      }
    } catch (err) {
      if (!isPluginAway(err)) throw err;
      away = err;
    }
    await waitForChannel(ctx, ticket, msg.connectionId, msg.id, op, message, away);
  }

  /** Puts a send, or a change of a sent message, in the outbox until its channel plugin is back. */
  async function waitForChannel(ctx: Ctx, ticket: SendTicket, connectionId: number | null, messageId: number, op: "send" | "edit" | "reaction" | "delete", message: OutboundMessage, away: unknown): Promise<void> {
    // A message without a connection never met an away plugin (it has no channel to wait for).
    const connection = connectionId ? await connectionOf(ctx, connectionId) : null;
    if (!connection) throw new AppError("ERR_CONNECTION_NOT_FOUND");
    const to = await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
    const reason = reasonOf(away);
    await call(ctx, "outbox.enqueue", { tenantId: ticket.tenantId, connectionId: connection.id, ticketId: ticket.id, messageId, op, payload: { to: { externalId: to }, message }, reason });
    logger().info(`message ${messageId}${op === "send" ? "" : ` (${op})`} waits for its channel (${reason})`);
  }

  /**
   * An edit or deletion of a message that has no provider id yet: while it waits in the
   * outbox, the waiting send is changed (new text) or dropped; when it is not waiting (the
   * outbox handed it over meanwhile) the provider id it got is answered, for the edit or
   * deletion to go to the channel.
   */
  async function reviseWaiting(ctx: Ctx, msg: MessageRow, change: { body?: string; drop?: boolean }): Promise<{ dropped: boolean; providerId: string | null }> {
    if (!msg.connectionId || msg.status !== "pending") return { dropped: false, providerId: null };
    const r = await call(ctx, "outbox.revise", { connectionId: msg.connectionId, messageId: msg.id, ...change });
    if (r.waiting === null) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { id: msg.id });
    if (r.waiting || r.dropped) return { dropped: !!r.dropped, providerId: null };
    const now = await model.findOne({ where: { id: msg.id, tenantId: msg.tenantId }, attributes: ["providerId"] });
    return { dropped: false, providerId: (now?.get("providerId") as string | null) ?? null };
  }

  /**
   * Hands an outgoing message to its channel plugin; answers what to record, or null when
   * it waits in the outbox (pending): its plugin is away (not running, its node lost
   * mid-call), or earlier messages of the connection wait there still, which it must not
   * overtake. The outbox service sends it when the plugin is back (see settle).
   */
  async function handOver(ctx: Ctx, ticket: SendTicket, messageId: number, o: OutgoingContent, via: SendVia = {}): Promise<Partial<MessageRow> | null> {
    const replyToProviderId = o.quoted?.providerId ?? undefined;
    const media = o.media && { path: o.media.path, url: o.media.url, mimeType: o.media.mimeType, fileName: o.media.fileName, size: o.media.size };
    // A sticker goes as the channel's sticker (the kind the "sticker" capability promises), and waits in the outbox as one.
    // A template goes by its name and variables (template-send.ts); `body` is only its text as the chat shows it.
    const message: OutboundMessage = o.template
      ? { kind: "template", ...o.template }
      : media
        ? o.sticker
          ? { kind: "sticker", media, replyToProviderId }
          : { kind: "media", body: o.body || undefined, media, replyToProviderId }
        : { kind: "text", body: o.body, replyToProviderId };
    let away: unknown = null;
    try {
      if (ticket.connectionId && (await call(ctx, "outbox.waits", { connectionId: ticket.connectionId }))) away = "ERR_OUTBOX_WAITING";
      else {
        const known = via.channel && via.channel.connection.id === ticket.connectionId ? via.channel : null;
        const { service, connection } = known ?? (await channelService(ctx, ticket.connectionId));
        const to = known && via.to ? via.to : await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
        const res = await callChannel(ctx, service, "send", { tenantId: ticket.tenantId, connectionId: connection.id, to: { externalId: to }, message, messageId });
        return { status: "sent", providerId: res.providerMessageId };
      }
    } catch (err) {
      if (!isPluginAway(err)) throw err;
      away = err;
    }
    await waitForChannel(ctx, ticket, ticket.connectionId, messageId, "send", message, away);
    return null;
  }

  /** What a failed send keeps on the message: the error's code, and the provider's code and title when the channel gave them ("ERR_WABA_SEND_REFUSED: 131026 Message undeliverable"). */
  function failReasonOf(err: unknown): string {
    const e = err as { type?: string; message?: string; data?: { code?: unknown; title?: unknown } };
    const said = [e.data?.code, e.data?.title].filter((x) => typeof x === "string" || typeof x === "number").join(" ");
    if (e.type && said) return `${e.type}: ${said}`;
    return e.type ?? e.message ?? "send failed";
  }

  /** Records an outgoing message, hands it to the channel, and records the outcome either way. */
  async function sendOne(ctx: Ctx, ticket: SendTicket, o: OutgoingContent & { forwarded?: boolean }, via: SendVia = {}): Promise<ReturnType<typeof view>> {
    const now = Date.now();
    const row = await model
      .create({
        tenantId: ticket.tenantId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        connectionId: ticket.connectionId,
        fromMe: true,
        userId: ctx.meta.user?.id ?? null,
        body: o.body || null,
        mediaType: o.sticker ? "sticker" : o.media ? mediaTypeOf(o.media.mimeType) : null,
        media: o.media ?? null,
        status: "pending",
        quotedMsgId: o.quoted?.id ?? null,
        isForwarded: !!o.forwarded,
        read: true,
        providerTs: now,
        idempotencyKey: o.idempotencyKey ?? null,
      })
      .catch((err: unknown) => {
        if (o.idempotencyKey && err instanceof UniqueConstraintError) return null;
        throw err;
      });
    if (!row) return sentBefore(ctx, ticket, o, via);
    // The ticket's last message and activity, recorded alongside the hand-over (its outcome
    // does not change them), from the moment the message exists: a customer's answer to it
    // then finds the ticket as this message left it.
    const touched = call(ctx, "tickets.touch", { tenantId: ticket.tenantId, ticketId: ticket.id, body: o.body || o.media?.fileName || "", timestamp: now, incoming: false, quiet: true }).then(
      () => null,
      (err: unknown) => err,
    );
    await emit(ctx, ticket, "create", view(row));
    let patch: Partial<MessageRow> | null;
    try {
      patch = await handOver(ctx, ticket, Number(row.get("id")), o, via);
    } catch (err) {
      const reason = failReasonOf(err);
      logger().warn(`message ${row.get("id")} not sent: ${reason}`);
      patch = { status: "failed", failReason: String(reason).slice(0, 255) };
    }
    if (patch) await recordSend(ctx, row, patch);
    const touchFailed = await touched;
    if (touchFailed) throw touchFailed;
    const v = view(row);
    await emit(ctx, ticket, "update", v);
    return v;
  }

  /**
   * A keyed send whose key already made a message: that message is the answer, and nothing new
   * is sent. One case goes on: the first send was recorded and then cut short before its
   * hand-over (it stays pending, nothing waits for it in the outbox, and it is older than a
   * live hand-over could be); it is handed over now with the same message id, which is the id
   * a channel dedupes its sends on (plugins/README.md, "Sends may come twice").
   */
  async function sentBefore(ctx: Ctx, ticket: SendTicket, o: OutgoingContent, via: SendVia): Promise<ReturnType<typeof view>> {
    const first = await model.findOne({ where: { tenantId: ticket.tenantId, idempotencyKey: o.idempotencyKey! } });
    if (!first) throw new AppError("ERR_MESSAGE_NOT_FOUND", { idempotencyKey: o.idempotencyKey });
    const m = first.get({ plain: true }) as MessageRow;
    const stale = m.status === "pending" && Date.now() - new Date(m.createdAt).getTime() > STALE_KEYED_SEND_MS;
    if (!stale || m.ticketId !== ticket.id || !m.connectionId || (await call(ctx, "outbox.waits", { connectionId: m.connectionId, messageId: m.id }))) return view(first);
    logger().info(`message ${m.id}: its keyed send was cut short before the hand-over; handing it over again`);
    let patch: Partial<MessageRow> | null;
    try {
      patch = await handOver(ctx, ticket, m.id, o, via);
    } catch (err) {
      patch = { status: "failed", failReason: String(failReasonOf(err)).slice(0, 255) };
    }
    if (patch) await recordSend(ctx, first, patch);
    const v = view(first);
    await emit(ctx, ticket, "update", v);
    return v;
  }

  return { connectionOf, forgetConnection, channelService, sendReceipts, recordSend, loadOwnedMessage, relayChange, reviseWaiting, sendOne };
}
