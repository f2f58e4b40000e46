/**
 * Messages the session saw or sent, by WhatsApp message id (message_keys): the key a reply,
 * reaction, edit or delete points at, and the content Baileys' `getMessage` hands back when a
 * recipient's device asks for a retry (without it the recipient sees "waiting for this
 * message"). Writes of one moment are grouped into one transaction (a batch of upserts is
 * one write, not one per message); `remember` resolves once its row is committed.
 *
 * The content is kept as its protobuf encoding (base64), not JSON: protobuf objects turn their
 * bytes into base64 strings on the way to JSON, which a retry would then send as text.
 *
 * Rows are kept `retentionDays` (default 30) and pruned by whole days: the table is keyed by
 * the message's day, so pruning is a delete of a few day values, never a scan.
 */
import type { proto, WAMessage, WAMessageKey } from "@whiskeysockets/baileys";
import type { TenantData } from "@openatende/plugin-sdk";
import type { MessageKeyStore } from "../ports";
import { baileys } from "../session/baileys";
import { MessageKeyRow, TABLES } from "./tables";

const DAY_MS = 86_400_000;

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

function timestampMs(msg: WAMessage, fallback: number): number {
  const t = msg.messageTimestamp as unknown;
  const n = typeof t === "number" ? t : typeof t === "object" && t !== null && "toNumber" in t ? (t as { toNumber(): number }).toNumber() : Number(t);
  return Number.isFinite(n) && n > 0 ? n * 1000 : fallback;
}

/** The content as its protobuf bytes (base64): exactly what WhatsApp sent, bytes as bytes. */
function encodeContent(message: proto.IMessage): string {
  const { Message } = baileys().proto;
  return Buffer.from(Message.encode(Message.fromObject(message as Record<string, unknown>)).finish()).toString("base64");
}

export class TableMessageKeys implements MessageKeyStore {
  private batch = new Map<string, MessageKeyRow>();
  private waiters: Waiter[] = [];
  private scheduled = false;
  private tail: Promise<void> = Promise.resolve();
  private lastPrunedDay = 0;

  constructor(
    private readonly data: TenantData,
    private readonly connectionId: number,
    private readonly opts: { retentionDays?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  async keyOf(providerMessageId: string): Promise<WAMessageKey | undefined> {
    const row = this.batch.get(providerMessageId) ?? (await this.row(providerMessageId));
    return row ? (JSON.parse(row.keyJson) as WAMessageKey) : undefined;
  }

  async messageOf(providerMessageId: string): Promise<proto.IMessage | undefined> {
    const row = this.batch.get(providerMessageId) ?? (await this.row(providerMessageId));
    return row?.content ? baileys().proto.Message.decode(Buffer.from(row.content, "base64")) : undefined;
  }

  async remember(msg: WAMessage): Promise<void> {
    const id = msg.key?.id;
    if (!id) return;
    // A sighting without content (a stub, a status change) never replaces a stored one.
    if (!msg.message && !this.batch.has(id) && (await this.row(id))) return;
    const key: WAMessageKey = { remoteJid: msg.key.remoteJid, fromMe: msg.key.fromMe, id, ...(msg.key.participant ? { participant: msg.key.participant } : {}) };
    for (const alt of ["remoteJidAlt", "participantAlt", "addressingMode"] as const) {
      const v = (msg.key as Record<string, unknown>)[alt];
      if (typeof v === "string" && v) (key as Record<string, unknown>)[alt] = v;
    }
    const prev = this.batch.get(id);
    this.batch.set(id, {
      connectionId: this.connectionId,
      messageId: id.slice(0, 128),
      keyJson: JSON.stringify(key),
      // A later sighting without content (a status update) keeps what an earlier one had.
      content: msg.message ? encodeContent(msg.message) : (prev?.content ?? null),
      day: Math.floor(timestampMs(msg, this.now()) / DAY_MS),
    });
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Batches commit one after the other: a later sighting never lands before an earlier one.
        setImmediate(() => {
          this.tail = this.tail.then(() => this.flush());
        });
      }
    });
  }

  /** Deletes rows older than the retention (at most once a day). */
  async prune(): Promise<number> {
    const today = Math.floor(this.now() / DAY_MS);
    if (this.lastPrunedDay === today) return 0;
    this.lastPrunedDay = today;
    const cutoff = today - (this.opts.retentionDays ?? 30);
    // The days from two years before the cutoff up to it: older rows cannot exist in practice.
    const days = Array.from({ length: 730 }, (_, i) => cutoff - 1 - i);
    return this.data.table<MessageKeyRow>(TABLES.messages).delete({ connectionId: this.connectionId, day: days });
  }

  private async row(id: string): Promise<MessageKeyRow | null> {
    return this.data.table<MessageKeyRow>(TABLES.messages).get({ connectionId: this.connectionId, messageId: id.slice(0, 128) });
  }

  private async flush(): Promise<void> {
    const rows = [...this.batch.values()];
    const waiters = this.waiters;
    this.batch = new Map();
    this.waiters = [];
    this.scheduled = false;
    try {
      await this.data.table<MessageKeyRow>(TABLES.messages).upsertMany(rows);
      for (const w of waiters) w.resolve();
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  }
}
