/**
 * What this channel sent, by the core's message id (the contract's idempotency key), in the
 * plugin's own table: the core hands a message over again when it never heard the answer (the
 * plugin's node went away mid-send, the outbox retried), and WhatsApp has no idempotency key
 * of its own. A send still running here is joined rather than started twice.
 *
 * The key also holds a digest of what is sent: a message id the database hands out again
 * (another installation, a restored backup) with other content is a new send.
 *
 * What it cannot cover: a process killed after WhatsApp took the message and before the row
 * was written (a few milliseconds); that message goes twice.
 */
import { createHash } from "node:crypto";
import type { SendResult, TenantData } from "@openatende/plugin-sdk";
import { SentLogRow, TABLES } from "./tables";

export class TableSentLog {
  private readonly running = new Map<string, Promise<SendResult>>();

  constructor(
    private readonly data: TenantData,
    private readonly connectionId: number,
  ) {}

  /** Runs `send` once per (message id, what is sent); without a message id it just sends. */
  async once(messageId: number | undefined, what: unknown, send: () => Promise<SendResult>): Promise<SendResult> {
    if (messageId === undefined) return send();
    const digest = createHash("sha256").update(JSON.stringify(what)).digest("base64url").slice(0, 22);
    const key = `${messageId}:${digest}`;
    const running = this.running.get(key);
    if (running) return running;
    const table = this.data.table<SentLogRow>(TABLES.sent);
    const p = (async () => {
      const known = await table.get({ connectionId: this.connectionId, messageId, digest });
      if (known) return { providerMessageId: known.providerMessageId, timestamp: Number(known.timestamp) };
      const res = await send();
      await table.upsert({ connectionId: this.connectionId, messageId, digest, providerMessageId: res.providerMessageId, timestamp: res.timestamp });
      return res;
    })();
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }
}
