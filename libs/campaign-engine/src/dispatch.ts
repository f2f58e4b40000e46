/**
 * One run of a campaign's dispatch (the `dispatch` job of its type plugin): it starts a
 * scheduled campaign whose start came, sends to contacts while a lane (connection) is ready and
 * open, and answers when to run again — or finishes the campaign when no contact is left.
 *
 * Exactly once: a contact is claimed (status `sending`, with its connection and variant) in
 * the campaign's locked transaction before its send, and its send carries
 * campaignSendKey(campaign, contact, attempt). A run killed after the claim leaves the contact
 * `sending`; the next run sends it again with the same key, connection and variant, and the
 * core answers the message the first send made (or makes it, if the first never got there):
 * nothing twice, nothing lost. A send the channel refused as rate limited was never handed
 * over: the contact goes back to pending under its next attempt (a new key) and its lane backs
 * off. Any other failure fails the contact with the core's reason. A send that throws (the core
 * unreachable) leaves the claim for the retry of the job.
 *
 * Throughput: a run claims a batch of contacts per transaction (one per ready lane slot; a lane
 * with no interval takes several), sends them side by side (one after the other per connection), and
 * asks each connection's business time once per minute (hours change only at whole minutes).
 * When the next slot is near (`shortWaitMs`) the run waits for it in process, within
 * `runBudgetMs`, instead of going back to the scheduler, whose tick is a second; lanes keep
 * their cadence in ms (pacing.ts slotOf), so small delays do not lower the rate.
 */
import { campaignSendKey, type CampaignTypeDefinition, type PlatformMessage, type PlatformSend } from "@openatende/plugin-sdk";
import { afterAccepted, afterClosed, afterRateLimited, afterSend, chooseVariant, isRateLimited, lanesFor, pickLane, randomIntervalMs, slotOf, type LaneState } from "./pacing";
import { CAMPAIGN_CONTACTS, CAMPAIGNS } from "./schema";
import { contactOf, type CampaignRow, type CampaignStore, type ContactRow } from "./store";

/** What the dispatcher needs from the outside: the core API's send and business time, and the clock. */
export interface DispatchPorts {
  now(): number;
  random(): number;
  send(p: { tenantId: number; contactId: number; connectionId: number } & PlatformSend): Promise<Pick<PlatformMessage, "id" | "status" | "failReason">>;
  /** Is the connection's business time open at `at`, and when does it open next. */
  businessTime(p: { tenantId: number; connectionId: number; at: number }): Promise<{ open: boolean; nextOpenAt: number | null }>;
  /** A sent message's status now: its acks may have come before the send was recorded here, when no contact had its id. */
  messageStatus(p: { tenantId: number; messageId: number }): Promise<string | null>;
  /** Waits `ms` on the clock of now() (a run waiting for its next slot); absent: a run never waits, it answers when to run again. */
  sleep?(ms: number): Promise<void>;
}

export interface DispatchOptions {
  /** Contacts claimed per transaction. */
  batch: number;
  /** Connections of a run sending at once (each sends its contacts one after the other); 20: every connection a campaign may have. */
  inFlight: number;
  /** A run waits in process for a slot this near (ms), else it answers when to run again. */
  shortWaitMs: number;
  /** A run starts no new batch after this long (ms): another campaign's run gets the worker. */
  runBudgetMs: number;
  /** A run sends at most this many. */
  maxSendsPerRun: number;
}

export const DISPATCH_DEFAULTS: DispatchOptions = { batch: 50, inFlight: 20, shortWaitMs: 1000, runBudgetMs: 2000, maxSendsPerRun: 1000 };

export type DispatchOutcome =
  | { state: "idle"; reason: "gone" | "status" }
  | { state: "wait"; wakeAt: number; sent: number }
  | { state: "finished"; sent: number };

/** A claimed contact: its lane (null: a claim left by a killed run, sent again as it was) and the lanes' state after the claim. */
interface Claimed {
  contact: ContactRow;
  laneIndex: number | null;
}

type Claim = { items: Claimed[]; wakeAt: number; content: unknown; lanes: LaneState | null } | { finished: true } | { stopped: true };

const RANK: Record<string, number> = { sent: 1, delivered: 2, read: 3, played: 4 };

/** The core refused the call itself (a catalogue code: the contact, connection or message is gone), as opposed to the broker's own 4xx while a core stops or starts. */
function isRefusal(err: unknown): boolean {
  const e = err as { type?: string; code?: number };
  return typeof e.code === "number" && e.code >= 400 && e.code < 500 && e.code !== 429 && typeof e.type === "string" && (e.type.startsWith("ERR_") || e.type === "VALIDATION_ERROR");
}

/** Business time changes only at whole minutes (schedules are "HH:MM", holidays whole days). */
const MINUTE = 60_000;

export class CampaignDispatcher {
  readonly options: DispatchOptions;
  /** Connections found open, until when (the next whole minute): tenant:connection → epoch ms. */
  private openUntil = new Map<string, number>();

  constructor(
    readonly store: CampaignStore,
    readonly type: CampaignTypeDefinition<unknown>,
    readonly ports: DispatchPorts,
    options: Partial<DispatchOptions> = {},
  ) {
    this.options = { ...DISPATCH_DEFAULTS, ...options };
  }

  async run(tenantId: number, campaignId: number): Promise<DispatchOutcome> {
    const first = await this.store.find(tenantId, campaignId);
    if (!first) return { state: "idle", reason: "gone" };
    if (first.status === "scheduled") {
      if (this.ports.now() < first.startAt) return { state: "wait", wakeAt: first.startAt, sent: 0 };
      const started = await this.start(tenantId, campaignId);
      if (!started) return { state: "idle", reason: "status" };
    } else if (first.status !== "processing") return { state: "idle", reason: "status" };

    const o = this.options;
    const began = this.ports.now();
    let sent = 0;
    for (;;) {
      const claim = await this.claim(tenantId, campaignId);
      if ("stopped" in claim) return { state: "idle", reason: "status" };
      if ("finished" in claim) return { state: "finished", sent };
      sent += await this.sendAll(tenantId, campaignId, claim);
      const now = this.ports.now();
      if (sent >= o.maxSendsPerRun || now - began >= o.runBudgetMs) return { state: "wait", wakeAt: claim.wakeAt, sent };
      if (claim.wakeAt <= now) {
        if (claim.items.length) continue;
        return { state: "wait", wakeAt: now, sent };
      }
      const wait = claim.wakeAt - now;
      if (!this.ports.sleep || wait > o.shortWaitMs || now - began + wait > o.runBudgetMs) return { state: "wait", wakeAt: claim.wakeAt, sent };
      await this.ports.sleep(wait);
    }
  }

  /** scheduled → processing, once the start came (false: someone changed the status meanwhile). */
  private async start(tenantId: number, id: number): Promise<boolean> {
    return this.store.locked(tenantId, id, async (tx, c) => {
      if (c.status === "processing") return true;
      if (c.status !== "scheduled") return false;
      const now = this.ports.now();
      await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { status: "processing", startedAt: c.startedAt ?? now, updatedAt: now });
      return true;
    });
  }

  /** Is the connection open now: asked once per whole minute while open (a closed lane waits for its opening anyway). */
  private async isOpen(tenantId: number, connectionId: number, now: number): Promise<{ open: boolean; nextOpenAt: number | null }> {
    const key = `${tenantId}:${connectionId}`;
    if ((this.openUntil.get(key) ?? 0) > now) return { open: true, nextOpenAt: null };
    const bt = await this.ports.businessTime({ tenantId, connectionId, at: now });
    if (bt.open) this.openUntil.set(key, (Math.floor(now / MINUTE) + 1) * MINUTE);
    else this.openUntil.delete(key);
    return bt;
  }

  /**
   * In the campaign's lock: the contacts to send now — first those left `sending` by a killed
   * run (with their recorded connection), then pending ones, one per ready lane slot, each lane
   * checked open — and when the next slot comes.
   */
  private async claim(tenantId: number, id: number): Promise<Claim> {
    const now = this.ports.now();
    return this.store.locked(tenantId, id, async (tx, c) => {
      if (c.status !== "processing") return { stopped: true };
      const contacts = tx.table<ContactRow>(CAMPAIGN_CONTACTS);
      const batch = this.options.batch;
      const stale = await contacts.find({ campaignId: id, status: "sending" }, { orderBy: [["id", "asc"]], limit: batch });
      const items: Claimed[] = stale.map((r) => ({ contact: contactOf(r), laneIndex: null }));
      const pending = items.length < batch ? await contacts.find({ campaignId: id, status: "pending" }, { orderBy: [["id", "asc"]], limit: batch - items.length }) : [];
      if (!items.length && !pending.length) {
        await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { status: "finished", finishedAt: now, updatedAt: now });
        return { finished: true };
      }
      let lanes: LaneState = lanesFor(c.connectionIds, c.lanes, now);
      const claimed = new Map<string, number[]>();
      for (const next of pending) {
        let pick = pickLane(lanes, now);
        while (pick.index !== null) {
          const bt = await this.isOpen(tenantId, lanes.lanes[pick.index].connectionId, now);
          if (bt.open) break;
          lanes = afterClosed(lanes, pick.index, now, bt.nextOpenAt);
          pick = pickLane(lanes, now);
        }
        if (pick.index === null) break;
        const lane = lanes.lanes[pick.index];
        const variant = chooseVariant(this.type.variantCount(c.content), () => this.ports.random());
        // The lane is taken now (its interval counts from its slot); a rate limit moves it again.
        const interval = randomIntervalMs(c.minIntervalSeconds, c.maxIntervalSeconds, () => this.ports.random());
        lanes = afterSend(lanes, pick.index, slotOf(lane, now, interval), interval);
        const key = `${lane.connectionId}:${variant}`;
        claimed.set(key, [...(claimed.get(key) ?? []), Number(next.id)]);
        items.push({ contact: { ...contactOf(next), status: "sending", connectionId: lane.connectionId, variant, updatedAt: now }, laneIndex: pick.index });
      }
      for (const [key, ids] of claimed) {
        const [connectionId, variant] = key.split(":").map(Number);
        await contacts.update({ campaignId: id, id: ids, status: "pending" }, { status: "sending", connectionId, variant, updatedAt: now });
      }
      await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { lanes });
      return { items, wakeAt: Math.min(...lanes.lanes.map((l) => l.nextAt)), content: c.content, lanes };
    });
  }

  /**
   * Sends a batch: each connection's contacts one after the other (as a channel sends), the
   * connections side by side, at most `inFlight` at once. A send that throws stops new ones and
   * is thrown once the others are settled (fewer claims in the air when a worker stops).
   */
  private async sendAll(tenantId: number, campaignId: number, claim: { items: Claimed[]; content: unknown; lanes: LaneState | null }): Promise<number> {
    const byLane = new Map<number, Claimed[]>();
    for (const item of claim.items) byLane.set(item.contact.connectionId!, [...(byLane.get(item.contact.connectionId!) ?? []), item]);
    const queues = [...byLane.values()];
    let done = 0;
    let failure: { err: unknown } | null = null;
    const worker = async () => {
      for (let queue = queues.shift(); queue && !failure; queue = queues.shift()) {
        for (const item of queue) {
          if (failure) return;
          try {
            await this.sendClaimed(tenantId, campaignId, claim, item.contact, item.laneIndex);
            done++;
          } catch (err) {
            failure ??= { err };
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.inFlight, queues.length) }, worker));
    if (failure) throw (failure as { err: unknown }).err;
    return done;
  }

  private async sendClaimed(tenantId: number, campaignId: number, c: { content: unknown; lanes: LaneState | null }, contact: ContactRow, laneIndex: number | null): Promise<void> {
    const connectionId = contact.connectionId!;
    const body = this.type.buildSend(c.content, { contactId: contact.contactId, name: contact.name, number: contact.number }, contact.variant ?? 0);
    let message: Pick<PlatformMessage, "id" | "status" | "failReason">;
    try {
      message = await this.ports.send({ tenantId, contactId: contact.contactId, connectionId, ...body, idempotencyKey: campaignSendKey(campaignId, contact.id, contact.attempt) });
    } catch (err) {
      // The core refused the send itself (the contact or connection is gone: a catalogue code): that contact fails. Anything
      // else is retried, the broker's own 4xx too (SERVICE_NOT_FOUND while a core stops or starts is no answer about the contact).
      if (!isRefusal(err)) throw err;
      message = { id: 0, status: "failed", failReason: (err as { type: string }).type };
    }
    const now = this.ports.now();
    const table = this.store.scope(tenantId).table<ContactRow>(CAMPAIGN_CONTACTS);
    const mine = { campaignId, id: contact.id, status: "sending", attempt: contact.attempt };
    if (message.status === "failed" && isRateLimited(message.failReason)) {
      await this.store.locked(tenantId, campaignId, async (tx, locked) => {
        const n = await tx.table<ContactRow>(CAMPAIGN_CONTACTS).update(mine, { status: "pending", attempt: contact.attempt + 1, connectionId: null, variant: null, updatedAt: now });
        if (!n) return;
        const lanes = lanesFor(locked.connectionIds, locked.lanes, now);
        const index = laneIndex ?? lanes.lanes.findIndex((l) => l.connectionId === connectionId);
        if (index >= 0) await tx.table<CampaignRow>(CAMPAIGNS).update({ id: campaignId }, { lanes: afterRateLimited(lanes, index, now) });
      });
      return;
    }
    const failed = message.status === "failed";
    const lane = c.lanes?.lanes.find((l) => l.connectionId === connectionId);
    if (!failed && lane && lane.backoffMs > 0) {
      await this.store.locked(tenantId, campaignId, async (tx, locked) => {
        if (locked.lanes) await tx.table<CampaignRow>(CAMPAIGNS).update({ id: campaignId }, { lanes: afterAccepted(locked.lanes, connectionId) });
      });
    }
    // A message sent before (the same key after a restart) may have had its acks already: its status says how far it got.
    const reached = (["delivered", "read", "played"] as const).find((x) => x === message.status) ?? "sent";
    const messageId = message.id ? Number(message.id) : null;
    if (failed || !messageId || reached === "played") {
      await table.update(mine, { status: failed ? "failed" : reached, messageId, failReason: failed ? String(message.failReason ?? "send failed").slice(0, 255) : null, sentAt: now, updatedAt: now });
      return;
    }
    // The message id goes on the claim first: an ack handled from then on finds the contact (store.ack lifts a `sending` one).
    await table.update(mine, { messageId, sentAt: now, updatedAt: now });
    // An ack handled before that found no contact: the message's status now is read and taken as an ack (only upwards). A read
    // that fails (the core stopping) leaves the claim `sending`: the next run sends it again under its key, which answers the
    // message with its status, so no ack is lost to a worker stopped between the send and this read.
    let status: string | null = null;
    try {
      status = await this.ports.messageStatus({ tenantId, messageId });
    } catch (err) {
      if (!isRefusal(err)) throw err;
    }
    const best = status && (RANK[status] ?? 0) > RANK[reached] ? status : reached;
    const n = await table.update(mine, { status: best as ContactRow["status"], failReason: null, updatedAt: now });
    // An ack lifted the claim meanwhile: what was read still counts, upwards only.
    if (!n) await this.store.ack(tenantId, messageId, best);
  }
}
