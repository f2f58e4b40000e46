/**
 * What the engine's tests share: a real plugin database (MariaDB) with the engine's tables, a
 * campaign type of plain texts, an injected clock and random source, and a core stand-in that
 * keeps the core's send semantics the engine relies on: one message per idempotency key (a
 * repeat answers the first message), a channel that may answer "rate limited" (the message
 * failed with ERR_RATE_LIMITED, never handed over) and business hours per connection.
 */
import { openPluginDataAt, runPluginMigrations, testPluginDatabase, type CampaignTypeDefinition, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { CampaignErrors } from "../src/errors";
import { createCampaignTables } from "../src/schema";
import { CampaignStore } from "../src/store";
import { CampaignDispatcher, type DispatchPorts } from "../src/dispatch";

export const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

export const textType: CampaignTypeDefinition<{ messages: string[] }> = {
  type: "test",
  routeBase: "campanhas-teste",
  validateContent: (c) => (c.messages.length ? {} : { messages: "required" }),
  variantCount: (c) => c.messages.length,
  buildSend: (c, contact, variant) => ({ body: c.messages[variant].replace("{{name}}", contact.name) }),
};

export interface Sent {
  id: number;
  key: string;
  contactId: number;
  connectionId: number;
  body: string;
  at: number;
  status: "sent" | "failed";
  failReason: string | null;
}

/** The core's side as the engine sees it. */
export class FakeCore {
  clock = T0;
  messages = new Map<string, Sent>();
  /** Hand-overs to the channel per key (a duplicate would show here as 2). */
  handedOver = new Map<string, number>();
  /** Connections answering "rate limited" for their next n sends. */
  rateLimited = new Map<number, number>();
  /** Closed connections and when they open. */
  closed = new Map<number, number | null>();
  /** Throws after the message is made (the worker dies right after the send). */
  dieAfterSend = 0;
  sendsAt: Array<{ connectionId: number; at: number }> = [];
  /** Acks the channel reported per message id (the core's status now). */
  acks = new Map<number, string>();
  /** Awaited with each message before its send answers (an ack handled before the engine records the send). */
  onSent: ((m: Sent) => Promise<void>) | null = null;
  private seq = 0;

  ports(random: () => number = () => 0.5): DispatchPorts {
    return {
      now: () => this.clock,
      random,
      send: async (p) => {
        const key = p.idempotencyKey!;
        const had = this.messages.get(key);
        if (had) return had;
        const limited = this.rateLimited.get(p.connectionId) ?? 0;
        const m: Sent = { id: ++this.seq, key, contactId: p.contactId, connectionId: p.connectionId, body: p.body, at: this.clock, status: limited > 0 ? "failed" : "sent", failReason: limited > 0 ? "ERR_RATE_LIMITED" : null };
        if (limited > 0) this.rateLimited.set(p.connectionId, limited - 1);
        else {
          this.handedOver.set(key, (this.handedOver.get(key) ?? 0) + 1);
          this.sendsAt.push({ connectionId: p.connectionId, at: this.clock });
        }
        this.messages.set(key, m);
        await this.onSent?.(m);
        if (this.dieAfterSend > 0) {
          this.dieAfterSend--;
          throw new Error("worker killed after the send");
        }
        return m;
      },
      messageStatus: async ({ messageId }) => {
        for (const m of this.messages.values()) if (m.id === messageId) return this.acks.get(messageId) ?? m.status;
        return null;
      },
      businessTime: async ({ connectionId }) => (this.closed.has(connectionId) ? { open: false, nextOpenAt: this.closed.get(connectionId)! } : { open: true, nextOpenAt: null }),
    };
  }

  /** Contacts that got a message handed over, and how many times. */
  deliveredTo(): Map<number, number> {
    const out = new Map<number, number>();
    for (const m of this.messages.values()) if (m.status === "sent") out.set(m.contactId, (out.get(m.contactId) ?? 0) + (this.handedOver.get(m.key) ?? 0));
    return out;
  }
}

export interface World {
  db: TestPluginDatabase;
  data: PluginData;
  core: FakeCore;
  errors: CampaignErrors;
  store: CampaignStore;
  dispatcher(random?: () => number): CampaignDispatcher;
  /** A new PluginData on the same database (a restarted worker). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function openWorld(): Promise<World> {
  const db = await testPluginDatabase("mysql", { prefix: "oa_campaign" });
  await runPluginMigrations(db.address, [{ name: "0001-campaigns", up: createCampaignTables }]);
  const core = new FakeCore();
  const errors = new CampaignErrors("CAMPAIGN_TEST");
  const w: World = {
    db,
    data: await openPluginDataAt(db.address),
    core,
    errors,
    store: undefined as unknown as CampaignStore,
    dispatcher: (random) => new CampaignDispatcher(w.store, textType as CampaignTypeDefinition<unknown>, core.ports(random)),
    async restart() {
      await w.data.close();
      w.data = await openPluginDataAt(db.address);
      w.store = new CampaignStore(w.data, errors, () => core.clock);
    },
    async close() {
      await w.data.close();
      await db.drop();
    },
  };
  w.store = new CampaignStore(w.data, errors, () => core.clock);
  return w;
}

export const contactsOf = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ contactId: from + i, name: `Cliente ${from + i}`, number: `55119876${String(from + i).padStart(5, "0")}` }));
