/**
 * The dispatcher's throughput path on a real MariaDB plugin database, with an injected clock
 * whose sleep moves it (no real waits): a run claims a batch per transaction, sends it side by
 * side, asks business time once per connection and minute, waits in process for a near slot
 * within its budget, keeps each lane's cadence in ms, and still sends each contact once.
 */
import { ServiceBroker } from "moleculer";
import type { CampaignTypeDefinition } from "@openatende/plugin-sdk";
import { CampaignDispatcher, type DispatchOptions } from "../src/dispatch";
import { taggedContacts } from "../src/contacts";
import { contactsOf, openWorld, T0, textType, type World } from "./world";

jest.setTimeout(60_000);

let w: World;
beforeEach(async () => {
  w = await openWorld();
});
afterEach(async () => {
  await w.close();
});

const TENANT = 1;
const START = T0 + 60_000;

async function scheduled(contacts: number, over: Record<string, unknown> = {}) {
  const c = await w.store.create(TENANT, { name: "Promo", startAt: START, connectionIds: [11], minIntervalSeconds: 1, maxIntervalSeconds: 1, content: { messages: ["Oi {{name}}"] }, ...over });
  await w.store.addContacts(TENANT, c.id, contactsOf(contacts));
  await w.store.transition(TENANT, c.id, (row, linked) => require("../src/rules").schedule(row, linked, w.core.clock, w.errors));
  return c.id;
}

/** A dispatcher whose sleep moves the world's clock; counts business-time questions and the widest send batch under way. */
function pacedDispatcher(options: Partial<DispatchOptions> = {}) {
  const ports = w.core.ports();
  const stats = { businessTime: 0, inFlight: 0, maxInFlight: 0, sleeps: [] as number[] };
  const bt = ports.businessTime;
  const send = ports.send;
  ports.businessTime = (p) => {
    stats.businessTime++;
    return bt(p);
  };
  ports.send = async (p) => {
    stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
    await Promise.resolve();
    try {
      return await send(p);
    } finally {
      stats.inFlight--;
    }
  };
  ports.sleep = async (ms) => {
    stats.sleeps.push(ms);
    w.core.clock += ms;
  };
  return { dispatcher: new CampaignDispatcher(w.store, textType as CampaignTypeDefinition<unknown>, ports, options), stats };
}

describe("throughput", () => {
  it("one run keeps 4 connections at one send a second each, waiting in process, and sends everyone once", async () => {
    const id = await scheduled(20, { connectionIds: [11, 22, 33, 44] });
    w.core.clock = START;
    const { dispatcher, stats } = pacedDispatcher({ runBudgetMs: 10_000 });
    expect(await dispatcher.run(TENANT, id)).toEqual({ state: "finished", sent: 20 });
    const perSecond = new Map<number, number>();
    for (const s of w.core.sendsAt) perSecond.set((s.at - START) / 1000, (perSecond.get((s.at - START) / 1000) ?? 0) + 1);
    expect([...perSecond.entries()]).toEqual([0, 1, 2, 3, 4].map((sec) => [sec, 4]));
    expect(stats.sleeps).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(stats.maxInFlight).toBe(4);
    // Business time asked once per connection: the minute did not turn.
    expect(stats.businessTime).toBe(4);
    expect([...w.core.deliveredTo().values()]).toEqual(new Array(20).fill(1));
  });

  it("a far slot or a spent budget goes back to the scheduler with the wake time", async () => {
    const far = await scheduled(3, { minIntervalSeconds: 5, maxIntervalSeconds: 5 });
    w.core.clock = START;
    const { dispatcher } = pacedDispatcher({ shortWaitMs: 1000, runBudgetMs: 10_000 });
    expect(await dispatcher.run(TENANT, far)).toEqual({ state: "wait", wakeAt: START + 5000, sent: 1 });
    const busy = await scheduled(10, { startAt: START + 10_000 });
    w.core.clock = START + 10_000;
    const { dispatcher: short } = pacedDispatcher({ runBudgetMs: 2500 });
    expect(await short.run(TENANT, busy)).toEqual({ state: "wait", wakeAt: w.core.clock + 1000, sent: 3 });
  });

  it("asks business time again at the next whole minute, and a lane closed then waits for its opening", async () => {
    const id = await scheduled(90, { connectionIds: [11] });
    w.core.clock = START;
    const { dispatcher, stats } = pacedDispatcher({ runBudgetMs: 3_600_000, shortWaitMs: 60_000 });
    let out = await dispatcher.run(TENANT, id);
    // The run went on second by second for 90 s; at the minute's turn it asked again.
    expect(out.state).toBe("finished");
    expect(stats.businessTime).toBe(2);
    // Closed from now on: the cached answer holds to the minute's end, then the lane waits for the opening.
    const opensAt = START + 2 * 3_600_000;
    w.core.closed.set(11, opensAt);
    const id2 = await scheduled(5, { connectionIds: [11], startAt: w.core.clock });
    const next = Math.floor(w.core.clock / 60_000) * 60_000 + 60_000;
    w.core.clock = next;
    out = await dispatcher.run(TENANT, id2);
    expect(out).toEqual({ state: "wait", wakeAt: opensAt, sent: 0 });
    expect(stats.businessTime).toBe(3);
  });

  it("links every contact of a tag read in several keyset pages, once", async () => {
    const broker = new ServiceBroker({ logger: false });
    const tagged = contactsOf(12_345).map((c) => ({ id: c.contactId, name: c.name, number: c.number }));
    const asked: Array<number | undefined> = [];
    broker.createService({
      name: "platform",
      actions: {
        "contacts.byTags"(ctx: { params: { tenantId: number; tagIds: number[]; afterId?: number; limit: number } }) {
          const p = ctx.params;
          asked.push(p.afterId);
          if (p.tenantId !== TENANT) return { rows: [], nextAfterId: null };
          const rows = tagged.filter((c) => c.id > (p.afterId ?? 0)).slice(0, p.limit);
          return { rows, nextAfterId: rows.length === p.limit ? rows[rows.length - 1].id : null };
        },
      },
    });
    const plugin = broker.createService({ name: "campaign-test" });
    await broker.start();
    try {
      const found = await taggedContacts(plugin, TENANT, [7]);
      expect(asked).toEqual([undefined, 5000, 10_000]);
      const c = await w.store.create(TENANT, { name: "Tag", startAt: START, connectionIds: [11], minIntervalSeconds: 1, maxIntervalSeconds: 1, content: { messages: ["Oi"] } });
      expect(await w.store.addContacts(TENANT, c.id, found)).toEqual({ added: 12_345, total: 12_345 });
      expect(await w.store.addContacts(TENANT, c.id, found)).toEqual({ added: 0, total: 12_345 });
      const linked = await w.store.allContacts(TENANT, c.id);
      expect(new Set(linked.map((r) => r.contactId)).size).toBe(12_345);
      expect(linked.map((r) => r.id)).toEqual(Array.from({ length: 12_345 }, (_, i) => i + 1));
      expect(await taggedContacts(plugin, 2, [7])).toEqual([]);
    } finally {
      await broker.stop();
    }
  });
});
