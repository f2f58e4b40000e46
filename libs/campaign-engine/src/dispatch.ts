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
 */
import { campaignSendKey, type CampaignTypeDefinition, type PlatformMessage, type PlatformSend } from "@openatende/plugin-sdk";
import { afterAccepted, afterClosed, afterRateLimited, afterSend, chooseVariant, isRateLimited, lanesFor, pickLane, randomIntervalMs, type LaneState } from "./pacing";
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
}

export type DispatchOutcome =
  | { state: "idle"; reason: "gone" | "status" }
  | { state: "wait"; wakeAt: number; sent: number }
  | { state: "finished"; sent: number };

/** At most this many sends per run, so a run stays short; the next run follows at once. */
export const MAX_SENDS_PER_RUN = 50;

type Claim = { contact: ContactRow; laneIndex: number | null } | { wakeAt: number } | { finished: true } | { stopped: true };

export class CampaignDispatcher {
  constructor(
    readonly store: CampaignStore,
    readonly type: CampaignTypeDefinition<unknown>,
    readonly ports: DispatchPorts,
  ) {}

  async run(tenantId: number, campaignId: number): Promise<DispatchOutcome> {
    const first = await this.store.find(tenantId, campaignId);
    if (!first) return { state: "idle", reason: "gone" };
    if (first.status === "scheduled") {
      if (this.ports.now() < first.startAt) return { state: "wait", wakeAt: first.startAt, sent: 0 };
      const started = await this.start(tenantId, campaignId);
      if (!started) return { state: "idle", reason: "status" };
    } else if (first.status !== "processing") return { state: "idle", reason: "status" };

    let sent = 0;
    for (let turn = 0; turn < MAX_SENDS_PER_RUN * 4; turn++) {
      if (sent >= MAX_SENDS_PER_RUN) return { state: "wait", wakeAt: this.ports.now(), sent };
      const claim = await this.claim(tenantId, campaignId);
      if ("stopped" in claim) return { state: "idle", reason: "status" };
      if ("finished" in claim) return { state: "finished", sent };
      if ("wakeAt" in claim) return { state: "wait", wakeAt: claim.wakeAt, sent };
      if (claim.laneIndex === -1) continue; // a closed lane was set to wait; try the others
      await this.sendClaimed(tenantId, campaignId, claim.contact, claim.laneIndex);
      sent++;
    }
    return { state: "wait", wakeAt: this.ports.now(), sent };
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

  /**
   * In the campaign's lock: the contact to send next (one left `sending` by a killed run first,
   * with its recorded connection), the lane to send it through, checked open; or when to wake.
   */
  private async claim(tenantId: number, id: number): Promise<Claim> {
    const now = this.ports.now();
    return this.store.locked(tenantId, id, async (tx, c) => {
      if (c.status !== "processing") return { stopped: true };
      const contacts = tx.table<ContactRow>(CAMPAIGN_CONTACTS);
      const [stale] = await contacts.find({ campaignId: id, status: "sending" }, { orderBy: [["id", "asc"]], limit: 1 });
      if (stale) return { contact: contactOf(stale), laneIndex: null };
      const [next] = await contacts.find({ campaignId: id, status: "pending" }, { orderBy: [["id", "asc"]], limit: 1 });
      if (!next) {
        await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { status: "finished", finishedAt: now, updatedAt: now });
        return { finished: true };
      }
      let lanes: LaneState = lanesFor(c.connectionIds, c.lanes, now);
      const pick = pickLane(lanes, now);
      if (pick.index === null) {
        await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { lanes });
        return { wakeAt: pick.wakeAt };
      }
      const connectionId = lanes.lanes[pick.index].connectionId;
      const bt = await this.ports.businessTime({ tenantId, connectionId, at: now });
      if (!bt.open) {
        lanes = afterClosed(lanes, pick.index, now, bt.nextOpenAt);
        await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { lanes });
        return { contact: contactOf(next), laneIndex: -1 };
      }
      const variant = chooseVariant(this.type.variantCount(c.content), () => this.ports.random());
      const claimed = { status: "sending" as const, connectionId, variant, updatedAt: now };
      await contacts.update({ campaignId: id, id: Number(next.id) }, claimed);
      // The lane is taken now (its interval counts from the claim); a rate limit moves it again.
      lanes = afterSend(lanes, pick.index, now, randomIntervalMs(c.minIntervalSeconds, c.maxIntervalSeconds, () => this.ports.random()));
      await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { lanes });
      return { contact: { ...contactOf(next), ...claimed }, laneIndex: pick.index };
    });
  }

  private async sendClaimed(tenantId: number, campaignId: number, contact: ContactRow, laneIndex: number | null): Promise<void> {
    const c = await this.store.get(tenantId, campaignId);
    const connectionId = contact.connectionId!;
    const body = this.type.buildSend(c.content, { contactId: contact.contactId, name: contact.name, number: contact.number }, contact.variant ?? 0);
    let message: Pick<PlatformMessage, "id" | "status" | "failReason">;
    try {
      message = await this.ports.send({ tenantId, contactId: contact.contactId, connectionId, ...body, idempotencyKey: campaignSendKey(campaignId, contact.id, contact.attempt) });
    } catch (err) {
      // The core refused the send itself (the contact or connection is gone: a catalogue code): that contact fails. Anything
      // else is retried, the broker's own 4xx too (SERVICE_NOT_FOUND while a core stops or starts is no answer about the contact).
      const e = err as { type?: string; code?: number };
      const refused = typeof e.code === "number" && e.code >= 400 && e.code < 500 && e.code !== 429 && typeof e.type === "string" && (e.type.startsWith("ERR_") || e.type === "VALIDATION_ERROR");
      if (!refused) throw err;
      message = { id: 0, status: "failed", failReason: e.type };
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
    await table.update(mine, { status: failed ? "failed" : reached, messageId, failReason: failed ? String(message.failReason ?? "send failed").slice(0, 255) : null, sentAt: now, updatedAt: now });
    // An ack handled between the send's answer and the write above found no contact with this
    // message: the message's status now is read once more and taken as an ack (only upwards).
    if (failed || !messageId || reached === "played") return;
    const status = await this.ports.messageStatus({ tenantId, messageId }).catch(() => null);
    if (status && status !== reached) await this.store.ack(tenantId, messageId, status);
  }
}
