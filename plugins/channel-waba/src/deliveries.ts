/**
 * Meta's webhook deliveries: checked and routed while Meta waits, processed after the answer.
 *
 * A delivery comes to one connection's URL and must be signed with that connection's app
 * secret (else 401, nothing read). Each of its changes belongs to the connection whose
 * phone-number id its metadata names: the URL's own connection, or another connection that
 * serves that number *and* holds the very app secret that signed it (found through the
 * phone-number index, store.ts). A change for any other number is dropped with a log line: a
 * webhook for tenant A's number never lands in tenant B.
 *
 * Meta asks for a 2xx within seconds and retries otherwise (for days; duplicates and
 * out-of-order deliveries happen), so the answer goes as soon as the delivery is checked and
 * routed; messages, reactions and statuses are then handed to the core in order per
 * connection (inbound.ts). The core stores each wamid once and never moves a status back.
 * Each accepted change is held in Redis (store.ts) until the core has all of it, and taken up
 * again when its connection connects (after a crash or restart): answered is never lost.
 */
import { randomUUID } from "node:crypto";
import { Errors } from "moleculer";
import { resolveToken, type Caller, type ConnectionRef, type ResolvedToken } from "@openatende/plugin-sdk";
import type { WabaChannel } from "./channel";
import { processChange } from "./inbound";
import { readSettings, type WabaSettings } from "./settings";
import { DeliveryError, parseEnvelope, phoneNumberIdOf, sameSecret, signatureValid, SIGNATURE_HEADER, verificationAnswer, type WebhookChange } from "./webhook";

export interface Routed {
  ref: ConnectionRef;
  settings: WabaSettings;
  change: WebhookChange;
}

export interface DeliveryAnswer {
  ok: true;
  /** Changes taken for processing. */
  accepted: number;
  /** Changes dropped (another number, another field). */
  ignored: number;
}

const TAKES_NO_WEBHOOK = () => new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");

/** The connection's settings as the webhook needs them: the live ones, else the stored ones. */
function settingsOf(channel: WabaChannel, r: ResolvedToken): WabaSettings | null {
  const live = channel.liveOf(r);
  if (live) return live.settings;
  const read = readSettings(r.settings);
  return read.ok ? read.settings : null;
}

export class Deliveries {
  /** Per connection: the tail of its processing chain (order kept within a connection). */
  private readonly chains = new Map<number, Promise<void>>();
  /** Ids of held changes being processed here. */
  private readonly running = new Set<string>();

  constructor(
    private readonly channel: WabaChannel,
    private readonly core: Caller,
  ) {}

  /** The GET handshake: the challenge to echo, or 403. */
  verify(r: ResolvedToken, query: Record<string, unknown>): string {
    const settings = settingsOf(this.channel, r);
    if (!settings) throw TAKES_NO_WEBHOOK();
    const answer = verificationAnswer(query, settings.verifyToken);
    if (answer === null) throw new Errors.MoleculerClientError("Wrong verification token", 403, "ERR_WABA_VERIFY_TOKEN_MISMATCH");
    return answer;
  }

  /** One POST to connection `r`'s URL: checked, routed, answered; processed afterwards. */
  async accept(r: ResolvedToken, body: Buffer, headers: Record<string, string | undefined>): Promise<DeliveryAnswer> {
    const settings = settingsOf(this.channel, r);
    if (!settings) throw TAKES_NO_WEBHOOK();
    if (!signatureValid(body, settings.appSecret, headers[SIGNATURE_HEADER])) {
      throw new Errors.MoleculerClientError("Wrong or missing webhook signature", 401, "ERR_TOKEN_INVALID", { reason: "webhook-signature" });
    }
    let changes: WebhookChange[];
    try {
      changes = parseEnvelope(body);
    } catch (err) {
      if (err instanceof DeliveryError) throw new Errors.MoleculerClientError(err.message, err.status, err.code, { reason: err.message });
      throw err;
    }
    const routed = await this.route(r, settings, changes);
    const ids = routed.map(() => randomUUID());
    await Promise.all(routed.map((x, i) => this.channel.opts.store.hold(x.ref, ids[i], x.change)));
    routed.forEach((x, i) => this.enqueue(x, ids[i]));
    return { ok: true, accepted: routed.length, ignored: changes.length - routed.length };
  }

  /** Takes up the changes of a connection that were accepted and not finished (called once it is connected). */
  async recover(ref: ConnectionRef): Promise<number> {
    const live = this.channel.liveOf(ref);
    if (!live) return 0;
    let n = 0;
    for (const h of await this.channel.opts.store.held(ref)) {
      if (this.running.has(h.id)) continue;
      this.enqueue({ ref, settings: live.settings, change: h.change as WebhookChange }, h.id);
      n++;
    }
    if (n) this.log().info(`connection ${ref.connectionId}: ${n} webhook change(s) accepted before a restart taken up again`);
    return n;
  }

  /** Resolves when everything accepted so far has been processed (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size) await Promise.all([...this.chains.values()]);
  }

  private async route(r: ResolvedToken, settings: WabaSettings, changes: WebhookChange[]): Promise<Routed[]> {
    const own: ConnectionRef = { tenantId: r.tenantId, connectionId: r.connectionId };
    const others = new Map<string, Promise<{ ref: ConnectionRef; settings: WabaSettings } | null>>();
    const out: Routed[] = [];
    for (const change of changes) {
      if (change.field !== "messages") {
        // message_template_status_update, account_update, … : not this plugin's yet.
        this.log().info(`connection ${r.connectionId}: webhook field "${change.field}" ignored`);
        continue;
      }
      const pnid = phoneNumberIdOf(change);
      if (pnid === settings.phoneNumberId) {
        out.push({ ref: own, settings, change });
        continue;
      }
      if (!pnid) {
        this.log().warn(`connection ${r.connectionId}: a change without metadata.phone_number_id was dropped`);
        continue;
      }
      if (!others.has(pnid)) others.set(pnid, this.otherConnection(r, pnid, settings.appSecret));
      const other = await others.get(pnid)!;
      if (other) out.push({ ...other, change });
      else this.log().warn(`connection ${r.connectionId}: a change for phone number id ${pnid}, which no connection of this app serves, was dropped`);
    }
    return out;
  }

  /** The one other active connection serving `pnid` with the same app secret, or null. */
  private async otherConnection(r: ResolvedToken, pnid: string, appSecret: string): Promise<{ ref: ConnectionRef; settings: WabaSettings } | null> {
    const found: Array<{ ref: ConnectionRef; settings: WabaSettings }> = [];
    for (const token of await this.channel.opts.store.claimsOf(pnid)) {
      const other = await resolveToken(this.core, token).catch(() => null);
      if (!other || other.connectionId === r.connectionId || other.status === "inactive" || other.status === "disconnected") continue;
      const s = settingsOf(this.channel, other);
      if (!s || s.phoneNumberId !== pnid || !sameSecret(s.appSecret, appSecret)) continue;
      found.push({ ref: { tenantId: other.tenantId, connectionId: other.connectionId }, settings: s });
    }
    if (found.length > 1) this.log().warn(`phone number id ${pnid} is claimed by ${found.length} connections of one app: its changes are dropped until only one remains`);
    return found.length === 1 ? found[0] : null;
  }

  private enqueue(x: Routed, heldId: string): void {
    const id = x.ref.connectionId;
    this.running.add(heldId);
    const prev = this.chains.get(id) ?? Promise.resolve();
    const next = prev
      .then(async () => {
        if (await processChange(this.channel, this.core, x)) await this.channel.opts.store.release(x.ref, heldId);
      })
      .catch((err: Error) => this.log().warn(`connection ${id}: a webhook change was not processed: ${err.message}`))
      .finally(() => this.running.delete(heldId));
    this.chains.set(id, next);
    void next.then(() => {
      if (this.chains.get(id) === next) this.chains.delete(id);
    });
  }

  private log() {
    return this.channel.opts.logger;
  }
}
