/**
 * The engine's store and dispatcher on a real MariaDB plugin database, with an injected clock
 * (no sleeps) and a core stand-in with the core's send semantics (world.ts): the spec's rules
 * applied to stored campaigns, tenant isolation, paced round robin over connections, variants,
 * business-hours gating that resumes by itself, exactly once across a worker killed before or
 * after a send, rate limits that slow down instead of failing, finishing, and counts from acks.
 */
import { contactsOf, openWorld, T0, type World } from "./world";

jest.setTimeout(60_000);

let w: World;
beforeEach(async () => {
  w = await openWorld();
});
afterEach(async () => {
  await w.close();
});

const TENANT = 1;
const OTHER = 2;
const draft = (over: Record<string, unknown> = {}) => ({ name: "Black Friday", startAt: T0 + 60_000, connectionIds: [11], minIntervalSeconds: 10, maxIntervalSeconds: 10, content: { messages: ["Olá {{name}}"] }, ...over });

async function code(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (err) {
    return (err as { type: string }).type;
  }
}

/** Runs the dispatcher as the scheduler would: each run at its wake time, until it finishes (or `maxRuns`). */
async function drive(tenantId: number, id: number, maxRuns = 1000, random?: () => number): Promise<number> {
  let runs = 0;
  for (; runs < maxRuns; runs++) {
    const out = await w.dispatcher(random).run(tenantId, id);
    if (out.state !== "wait") return runs;
    w.core.clock = Math.max(w.core.clock, out.wakeAt);
  }
  return runs;
}

async function scheduled(contacts: number, over: Record<string, unknown> = {}) {
  const c = await w.store.create(TENANT, draft(over));
  await w.store.addContacts(TENANT, c.id, contactsOf(contacts));
  await w.store.transition(TENANT, c.id, (row, linked) => require("../src/rules").schedule(row, linked, w.core.clock, w.errors));
  return c.id;
}

describe("stored campaigns follow the spec's rules", () => {
  it("creates, edits only while pending or canceled, deletes only without contacts, and keeps tenants apart", async () => {
    const c = await w.store.create(TENANT, draft());
    expect(c).toMatchObject({ id: 1, status: "pending", contactSeq: 0 });
    expect((await w.store.create(OTHER, draft())).id).toBe(1); // ids are per tenant
    expect(await code(w.store.get(OTHER, 2))).toBe("ERR_CAMPAIGN_NOT_FOUND");
    await w.store.addContacts(TENANT, c.id, contactsOf(2));
    expect(await w.store.addContacts(TENANT, c.id, contactsOf(3))).toEqual({ added: 1, total: 3 });
    expect(await code(w.store.remove(TENANT, c.id))).toBe("ERR_CAMPAIGN_TEST_HAS_CONTACTS");
    const { schedule, pause, cancel } = require("../src/rules");
    expect(await code(w.store.transition(TENANT, c.id, (r) => pause(r, w.errors)))).toBe("ERR_CAMPAIGN_TEST_NOT_PAUSABLE");
    await w.store.transition(TENANT, c.id, (r, n) => schedule(r, n, w.core.clock, w.errors));
    expect(await code(w.store.update(TENANT, c.id, draft({ name: "Outra" })))).toBe("ERR_CAMPAIGN_NOT_EDITABLE");
    expect(await code(w.store.addContacts(TENANT, c.id, contactsOf(1, 50)))).toBe("ERR_CAMPAIGN_NOT_EDITABLE");
    await w.store.transition(TENANT, c.id, (r) => cancel(r, w.errors));
    expect((await w.store.update(TENANT, c.id, draft({ name: "Outra" }))).name).toBe("Outra");
    expect(await w.store.removeContacts(TENANT, c.id)).toEqual({ removed: 3, total: 0 });
    await w.store.remove(TENANT, c.id);
    expect(await code(w.store.get(TENANT, c.id))).toBe("ERR_CAMPAIGN_NOT_FOUND");
    // Another tenant's campaign is not found for any change.
    expect(await code(w.store.addContacts(OTHER, 5, contactsOf(1)))).toBe("ERR_CAMPAIGN_NOT_FOUND");
  });

  it("refuses to schedule without contacts or with a past start", async () => {
    const { schedule } = require("../src/rules");
    const c = await w.store.create(TENANT, draft());
    expect(await code(w.store.transition(TENANT, c.id, (r, n) => schedule(r, n, w.core.clock, w.errors)))).toBe("ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE");
    await w.store.addContacts(TENANT, c.id, contactsOf(1));
    w.core.clock = T0 + 3_600_000;
    expect(await code(w.store.transition(TENANT, c.id, (r, n) => schedule(r, n, w.core.clock, w.errors)))).toBe("ERR_CAMPAIGN_PAST_DATE");
  });
});

describe("dispatch", () => {
  it("waits for the start, then sends each contact once, paced round robin over the connections, and finishes", async () => {
    const id = await scheduled(7, { connectionIds: [11, 22], content: { messages: ["A {{name}}", "B {{name}}", "C {{name}}"] } });
    expect(await w.dispatcher().run(TENANT, id)).toEqual({ state: "wait", wakeAt: T0 + 60_000, sent: 0 });
    let r = 0;
    const rnd = () => [0.1, 0.5, 0.9][r++ % 3];
    await drive(TENANT, id, 1000, rnd);
    const c = await w.store.get(TENANT, id);
    expect(c).toMatchObject({ status: "finished", startedAt: T0 + 60_000, finishedAt: expect.any(Number) });
    expect([...w.core.deliveredTo().values()]).toEqual([1, 1, 1, 1, 1, 1, 1]);
    // Two lanes of 10 s each: sends at 0, 0, 10, 10, 20, 20, 30 s, alternating connections.
    expect(w.core.sendsAt.map((s) => [s.connectionId, (s.at - T0 - 60_000) / 1000])).toEqual([
      [11, 0],
      [22, 0],
      [11, 10],
      [22, 10],
      [11, 20],
      [22, 20],
      [11, 30],
    ]);
    const bodies = [...w.core.messages.values()].map((m) => m.body[0]);
    expect(new Set(bodies)).toEqual(new Set(["A", "B", "C"]));
    const { rows } = await w.store.contacts(TENANT, id);
    expect(rows.every((x) => x.status === "sent" && x.messageId !== null && x.variant !== null)).toBe(true);
    expect(await w.store.counts(TENANT, id)).toEqual({ contacts: 7, toSend: 0, delivered: 7, received: 0, read: 0, played: 0, failed: 0 });
  });

  it("sends a random interval between min and max apart", async () => {
    const id = await scheduled(3, { minIntervalSeconds: 5, maxIntervalSeconds: 25 });
    await drive(TENANT, id, 100, () => 0.25);
    const gaps = w.core.sendsAt.slice(1).map((s, i) => s.at - w.core.sendsAt[i].at);
    expect(gaps).toEqual([10_000, 10_000]);
  });

  it("sends only while the connection's business time is open, and resumes by itself when it opens", async () => {
    const id = await scheduled(2);
    w.core.closed.set(11, T0 + 3 * 3_600_000);
    w.core.clock = T0 + 60_000;
    const out = await w.dispatcher().run(TENANT, id);
    expect(out).toEqual({ state: "wait", wakeAt: T0 + 3 * 3_600_000, sent: 0 });
    expect(w.core.sendsAt).toEqual([]);
    w.core.closed.delete(11);
    await drive(TENANT, id);
    expect(w.core.sendsAt.map((s) => s.at)).toEqual([T0 + 3 * 3_600_000, T0 + 3 * 3_600_000 + 10_000]);
    expect((await w.store.get(TENANT, id)).status).toBe("finished");
  });

  it("a worker killed after the send, or after the claim, then restarted: nothing twice, nothing lost", async () => {
    const id = await scheduled(6, { connectionIds: [11, 22] });
    w.core.clock = T0 + 60_000;
    // Killed right after the core made contact 1's message (before the engine recorded it); contact 2 went beside it.
    w.core.dieAfterSend = 1;
    await expect(w.dispatcher().run(TENANT, id)).rejects.toThrow("worker killed after the send");
    expect((await w.store.contacts(TENANT, id)).rows.map((r) => r.status)).toEqual(["sending", "sent", "pending", "pending", "pending", "pending"]);
    await w.restart();
    // Killed between a claim and its send: the claim is recorded, the send never made.
    const { CAMPAIGN_CONTACTS } = require("../src/schema");
    await w.data.forTenant(TENANT).table(CAMPAIGN_CONTACTS).update({ campaignId: id, id: 3 }, { status: "sending", connectionId: 11, variant: 0 });
    await drive(TENANT, id);
    expect(w.core.deliveredTo()).toEqual(new Map([1, 2, 3, 4, 5, 6].map((c) => [c, 1])));
    expect(await w.store.counts(TENANT, id)).toMatchObject({ contacts: 6, toSend: 0, delivered: 6, failed: 0 });
    // Two runs at once (a retried job beside the next one) send nothing twice either.
    const id2 = await scheduled(20, { minIntervalSeconds: 0, maxIntervalSeconds: 0, startAt: w.core.clock });
    await Promise.all([drive(TENANT, id2), drive(TENANT, id2), drive(TENANT, id2)]);
    const keys = [...w.core.handedOver.entries()].filter(([k]) => k.startsWith(`campaign:${id2}:`));
    expect(keys).toHaveLength(20);
    expect(keys.every(([, n]) => n === 1)).toBe(true);
  });

  it("a rate-limited channel slows the campaign down instead of failing contacts", async () => {
    const id = await scheduled(4, { minIntervalSeconds: 1, maxIntervalSeconds: 1 });
    w.core.rateLimited.set(11, 2);
    await drive(TENANT, id);
    const { rows } = await w.store.contacts(TENANT, id);
    expect(rows.map((x) => x.status)).toEqual(["sent", "sent", "sent", "sent"]);
    expect(w.core.deliveredTo()).toEqual(new Map([1, 2, 3, 4].map((c) => [c, 1])));
    // Contact 1 was refused twice (5 s, then 10 s back-off) and sent under its third key.
    expect([...w.core.messages.keys()].filter((k) => k.startsWith(`campaign:${id}:contact:1`))).toEqual([`campaign:${id}:contact:1`, `campaign:${id}:contact:1:retry:1`, `campaign:${id}:contact:1:retry:2`]);
    const start = T0 + 60_000;
    const times = w.core.sendsAt.map((s) => (s.at - start) / 1000);
    expect(times[0]).toBe(15);
    // Slower than 1 s apart while the back-off fades (1 + 10, 1 + 5, 1 + 2.5 s).
    expect(times.slice(1).map((t, i) => t - times[i])).toEqual([11, 6, 3.5]);
  });

  it("fails a contact the channel refused for another reason, with the core's reason", async () => {
    const id = await scheduled(2, { minIntervalSeconds: 0, maxIntervalSeconds: 0 });
    const ports = w.core.ports();
    const base = ports.send;
    ports.send = async (p) => (p.contactId === 1 ? { id: 99, status: "failed", failReason: "ERR_WABA_SEND_REFUSED: 131026" } : base(p));
    const { CampaignDispatcher } = require("../src/dispatch");
    const { textType } = require("./world");
    w.core.clock = T0 + 60_000;
    await new CampaignDispatcher(w.store, textType, ports).run(TENANT, id);
    const { rows } = await w.store.contacts(TENANT, id);
    expect(rows.map((x) => [x.status, x.failReason])).toEqual([
      ["failed", "ERR_WABA_SEND_REFUSED: 131026"],
      ["sent", null],
    ]);
    expect(await w.store.counts(TENANT, id)).toMatchObject({ delivered: 1, failed: 1, toSend: 0 });
  });

  it("a send the core refused with a catalogue code fails the contact; the broker's own 4xx (a core stopping) leaves it for the retry", async () => {
    const id = await scheduled(2, { minIntervalSeconds: 0, maxIntervalSeconds: 0 });
    const ports = w.core.ports();
    const base = ports.send;
    let brokerErrors = 1;
    ports.send = async (p) => {
      if (p.contactId === 1 && brokerErrors-- > 0) throw Object.assign(new Error("Service 'platform.messages.sendTo' is not found."), { type: "SERVICE_NOT_FOUND", code: 404 });
      if (p.contactId === 2) throw Object.assign(new Error("refused"), { type: "ERR_CONTACT_NUMBER_INVALID", code: 400 });
      return base(p);
    };
    const { CampaignDispatcher } = require("../src/dispatch");
    const { textType } = require("./world");
    w.core.clock = T0 + 60_000;
    const dispatcher = new CampaignDispatcher(w.store, textType, ports);
    await expect(dispatcher.run(TENANT, id)).rejects.toThrow("is not found");
    // Both were claimed in one batch; the connection's sends stopped at the broker's error, both claims wait for the retry.
    expect((await w.store.contacts(TENANT, id)).rows.map((x) => x.status)).toEqual(["sending", "sending"]);
    await dispatcher.run(TENANT, id);
    const { rows } = await w.store.contacts(TENANT, id);
    expect(rows.map((x) => [x.status, x.failReason])).toEqual([
      ["sent", null],
      ["failed", "ERR_CONTACT_NUMBER_INVALID"],
    ]);
  });

  it("a paused campaign sends nothing until resumed; a canceled one stops", async () => {
    const { pause, resume, cancel } = require("../src/rules");
    const id = await scheduled(3);
    w.core.clock = T0 + 60_000;
    const first = await w.dispatcher().run(TENANT, id);
    expect(first).toMatchObject({ state: "wait", sent: 1 });
    await w.store.transition(TENANT, id, (r) => pause(r, w.errors));
    w.core.clock += 3_600_000;
    expect(await w.dispatcher().run(TENANT, id)).toEqual({ state: "idle", reason: "status" });
    expect((await w.store.transition(TENANT, id, (r) => resume(r, w.errors))).status).toBe("processing");
    expect(await w.dispatcher().run(TENANT, id)).toMatchObject({ state: "wait", sent: 1 });
    await w.store.transition(TENANT, id, (r) => cancel(r, w.errors));
    w.core.clock += 3_600_000;
    expect(await w.dispatcher().run(TENANT, id)).toEqual({ state: "idle", reason: "status" });
    expect(w.core.sendsAt).toHaveLength(2);
  });

  it("counts acks per campaign contact, only upwards", async () => {
    const id = await scheduled(3, { minIntervalSeconds: 0, maxIntervalSeconds: 0 });
    await drive(TENANT, id);
    const ids = (await w.store.contacts(TENANT, id)).rows.map((r) => r.messageId!);
    expect(await w.store.ack(TENANT, ids[0], "delivered")).toBe(id);
    await w.store.ack(TENANT, ids[1], "read");
    await w.store.ack(TENANT, ids[2], "played");
    await w.store.ack(TENANT, ids[2], "delivered"); // late, lower: ignored
    expect(await w.store.ack(TENANT, 987654, "read")).toBeNull();
    expect(await w.store.ack(OTHER, ids[0], "read")).toBeNull();
    expect(await w.store.counts(TENANT, id)).toEqual({ contacts: 3, toSend: 0, delivered: 3, received: 3, read: 2, played: 1, failed: 0 });
  });

  it("an ack that comes before the send is recorded is not lost: the message's status is read once the send is written", async () => {
    const id = await scheduled(2, { minIntervalSeconds: 0, maxIntervalSeconds: 0 });
    const early: Array<number | null> = [];
    // The channel acks at once: the ack handler runs while the contact still has no message id.
    w.core.onSent = async (m) => {
      w.core.acks.set(m.id, m.contactId === 1 ? "read" : "delivered");
      early.push(await w.store.ack(TENANT, m.id, w.core.acks.get(m.id)!));
    };
    try {
      await drive(TENANT, id);
    } finally {
      w.core.onSent = null;
    }
    expect(early).toEqual([null, null]);
    expect((await w.store.contacts(TENANT, id)).rows.map((r) => r.status)).toEqual(["read", "delivered"]);
    expect(await w.store.counts(TENANT, id)).toMatchObject({ delivered: 2, read: 1 });
  });

  it("a worker stopped between a send and its status read loses no ack: the claim keeps the message, an ack lifts it, else the next run sends it again under its key", async () => {
    const id = await scheduled(2, { connectionIds: [11, 22], minIntervalSeconds: 0, maxIntervalSeconds: 0 });
    w.core.clock = T0 + 60_000;
    const ports = w.core.ports();
    const read = ports.messageStatus;
    let stopping = 2;
    ports.messageStatus = async (p) => {
      if (stopping-- > 0) throw Object.assign(new Error("Service 'platform.messages.get' is not found."), { type: "SERVICE_NOT_FOUND", code: 404 });
      return read(p);
    };
    const { CampaignDispatcher } = require("../src/dispatch");
    const { textType } = require("./world");
    await expect(new CampaignDispatcher(w.store, textType, ports).run(TENANT, id)).rejects.toThrow("is not found");
    const rows = (await w.store.contacts(TENANT, id)).rows;
    expect(rows.map((r) => [r.status, r.messageId !== null])).toEqual([
      ["sending", true],
      ["sending", true],
    ]);
    // Contact 1's ack comes while the worker is down; contact 2's was recorded by the core only.
    expect(await w.store.ack(TENANT, rows[0].messageId!, "delivered")).toBe(id);
    w.core.acks.set(rows[1].messageId!, "read");
    await drive(TENANT, id);
    expect((await w.store.contacts(TENANT, id)).rows.map((r) => r.status)).toEqual(["delivered", "read"]);
    expect(w.core.deliveredTo()).toEqual(new Map([[1, 1], [2, 1]]));
  });
});
