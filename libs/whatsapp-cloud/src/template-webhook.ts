/**
 * The template status changes of a webhook delivery that deliveries.ts has already checked
 * (the provider's proof over the raw body) and answered for: the
 * `messages` changes are its; the `message_template_status_update` ones are taken here,
 * recorded and pushed to the tenant's screens (template-status.ts).
 *
 * A change counts for the URL's connection only when its entry names the connection's own
 * WhatsApp Business Account (provider.ownsAccount: 360dialog's URL is one number's, so
 * whatever comes to it is); anything else is dropped with a log line (another tenant's
 * account never reaches this tenant's screens).
 */
import { coreApi, type ResolvedToken } from "@openatende/plugin-sdk";
import type { CloudChannel } from "./channel";
import { templateStatusOf, type TemplateStatusRecord, type TemplateStatusStore } from "./template-status";
import { parseEnvelope } from "./webhook";

/** What the service gives: the realtime push of the core API (coreApi(this)). */
export type Push = (p: { tenantId: number; event: string; payload: unknown }) => Promise<unknown>;

export const TEMPLATE_STATUS_EVENT = "template.status";

export function pushOf(svc: Parameters<typeof coreApi>[0]): Push {
  return (p) => coreApi(svc).realtime.push(p);
}

/** Records and pushes the delivery's template status changes; answers how many were taken. */
export async function takeTemplateStatuses(channel: CloudChannel, store: TemplateStatusStore, push: Push, r: ResolvedToken, body: Buffer): Promise<number> {
  const changes = parseEnvelope(body);
  const records: TemplateStatusRecord[] = [];
  const settings = channel.liveOf(r)?.settings ?? (() => {
    const read = channel.provider.readSettings(r.settings);
    return read.ok ? read.settings : null;
  })();
  const wabaId = settings?.businessAccountId ?? null;
  for (const change of changes) {
    const rec = templateStatusOf(change);
    if (!rec) continue;
    if (!settings || !channel.provider.ownsAccount(settings, change.wabaId)) {
      channel.opts.logger.warn(`connection ${r.connectionId}: a template status of business account ${change.wabaId}, not this connection's, was dropped`);
      continue;
    }
    records.push(rec);
  }
  if (!records.length || !wabaId) return 0;
  const ref = { tenantId: r.tenantId, businessAccountId: wabaId };
  for (const rec of records) {
    await store.record(ref, rec);
    await push({ tenantId: r.tenantId, event: TEMPLATE_STATUS_EVENT, payload: { connectionId: r.connectionId, businessAccountId: wabaId, ...rec } }).catch((err: Error) =>
      channel.opts.logger.warn(`connection ${r.connectionId}: template status of ${rec.name} not pushed: ${err.message}`),
    );
  }
  return records.length;
}
