/**
 * Everything an appointment is checked against before it is stored (creating or moving it):
 * the rules of rules.ts on what the client sent, then what lives elsewhere: the contact, user
 * and connection are the tenant's (their not-found codes), the service is the tenant's and the
 * user's, the time lies inside the user's availability (Step 9, platform.users.availability)
 * and meets none of the user's other appointments, and a WABA template is approved on the
 * connection with as many parameters as variables.
 */
import type { Context } from "moleculer";
import { coreApi, PluginError, type CoreApi } from "@openatende/plugin-sdk";
import { safeZone } from "./local-time";
import { checkAppointment, checkAvailability, checkNoConflict, checkServiceUser, templateVariables, type AppointmentFields, type AppointmentInput, type TemplateChoice } from "./rules";
import type { AppointmentStore } from "./store";

export async function tenantZone(api: CoreApi, tenantId: number): Promise<string> {
  const s = await api.settings.get({ tenantId });
  return safeZone(s.timeZone);
}

/** The approved template of that name and language on the connection (its pages, at most 10). */
export async function findTemplate(api: CoreApi, tenantId: number, connectionId: number, name: string, language: string) {
  let after: string | undefined;
  for (let page = 0; page < 10; page++) {
    const r = await api.templates.list({ tenantId, connectionId, status: "APPROVED", after, limit: 100 });
    const t = r.templates.find((x) => x.name === name && x.language === language);
    if (t) return t;
    if (!r.next) break;
    after = r.next;
  }
  return null;
}

async function checkTemplate(api: CoreApi, tenantId: number, connectionId: number, t: TemplateChoice): Promise<void> {
  const found = await findTemplate(api, tenantId, connectionId, t.name, t.language);
  if (!found) throw new PluginError("ERR_APPOINTMENT_TEMPLATE_NOT_FOUND", 400, { field: "template", name: t.name });
  const expected = templateVariables(found.body.text);
  if (expected !== t.params.length) throw new PluginError("ERR_APPOINTMENT_TEMPLATE_PARAMS", 400, { field: "template.params", expected, given: t.params.length });
}

export async function validate(ctx: Context, store: AppointmentStore, tenantId: number, input: AppointmentInput, now: number, selfId?: number): Promise<AppointmentFields & { duration: number }> {
  const api = coreApi(ctx);
  const tz = await tenantZone(api, tenantId);
  const f = checkAppointment(input, now, tz);
  await api.contacts.get({ tenantId, id: f.contactId });
  await api.users.get({ tenantId, id: f.userId });
  // The core API has no connections.get: the business-time question checks the connection is the tenant's.
  await api.businessTime.state({ tenantId, target: { connectionId: f.connectionId } });
  const service = await store.service(tenantId, f.serviceId);
  checkServiceUser(service, f.userId);
  const duration = f.duration ?? service.duration;
  checkAvailability(await api.users.availability({ tenantId, userId: f.userId }), f.startAt, duration, tz);
  const theirs = await store.list(tenantId, { userId: f.userId, status: "scheduled", from: f.startAt, to: f.startAt + duration * 60_000 });
  checkNoConflict(theirs, f.startAt, f.startAt + duration * 60_000, selfId);
  if (f.template) await checkTemplate(api, tenantId, f.connectionId, f.template);
  return { ...f, duration };
}
