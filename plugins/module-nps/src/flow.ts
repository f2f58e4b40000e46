/**
 * The survey's flow (spec §4 NPS flow), exactly once per close:
 *
 * 1. `ticket.closed` (an agent's, a mass or an automatic close of a ticket with a contact and a
 *    connection, not a group; not a plugin's close, which is a plugin's own business — a
 *    chatbot ending its conversation — rather than a service the customer rates): with the
 *    survey on, a `request` job is scheduled REQUEST_DELAY_MS after the close, keyed by the
 *    ticket and its close time (a close told twice schedules one job; the scheduler runs a
 *    job id once). The delay lets the core's farewell go first.
 * 2. The request job writes the survey ("asking"), claims the contact's next messages on the
 *    connection (platform.inbound.claim, for the timeout), sends the request on the closed
 *    ticket (idempotency key per survey: a retry or a restart sends nothing twice), moves it
 *    to "waiting" and schedules its `timeout` job. A newer survey of the same contact there
 *    replaces an older one still waiting.
 * 3. The contact's messages come to onClaimedInbound (src/replies.ts).
 * 4. The timeout job: a survey still waiting at its time ends "timedOut", the claim is
 *    released and the timeout message goes. A run again of that job (a retry, a restart)
 *    sends the same message key again, which the core answers without sending.
 *
 * Times are the core's: the close's time, a job's due time, a message's arrival.
 */
import type { Context } from "moleculer";
import { coreApi, type CoreApi, type JobDelivery, type PlatformEventEnvelope, type PluginJobs } from "@openatende/plugin-sdk";
import { fillText } from "./scale";
import type { NpsSettings, SettingsStore } from "./settings";
import { OPEN_STATES, type CloseVia, type SurveyRow, type SurveyStore } from "./store";

export const REQUEST_JOB = "request";
export const TIMEOUT_JOB = "timeout";
/** After the close: the core's farewell goes out first. */
export const REQUEST_DELAY_MS = 5_000;
export const JOB_ATTEMPTS = 3;
/** Closes that ask (see 1. above). */
export const ASKING_VIAS: CloseVia[] = ["agent", "mass", "automatic"];

export interface Flow {
  settings: SettingsStore;
  surveys: SurveyStore;
  jobs: PluginJobs;
  warn(msg: string): void;
}

export const claimRef = (surveyId: number) => `nps-survey-${surveyId}`;
export const surveyOfRef = (ref: string): number | null => {
  const m = /^nps-survey-(\d+)$/.exec(ref);
  return m ? Number(m[1]) : null;
};
export const messageKey = (kind: "request" | "thanks" | "invalid" | "timeout", surveyId: number) => `nps:${kind}:${surveyId}`;

type Closed = PlatformEventEnvelope<"ticket.closed">;

export async function onTicketClosed(ctx: Context, f: Flow, env: Closed): Promise<"scheduled" | "skipped"> {
  const { ticket } = env.data;
  const via: CloseVia = env.data.via ?? "agent";
  if (!ASKING_VIAS.includes(via) || ticket.isGroup || !ticket.contactId || !ticket.connectionId) return "skipped";
  if (!(await f.settings.get(env.tenantId)).enabled) return "skipped";
  const closedAt = ticket.closedAt ? Date.parse(ticket.closedAt) : env.at;
  await f.jobs.schedule(ctx, {
    name: REQUEST_JOB,
    key: `ticket-${ticket.id}-${closedAt}`,
    tenantId: env.tenantId,
    runAt: closedAt + REQUEST_DELAY_MS,
    data: { ticketId: ticket.id, closedAt, via, contactId: ticket.contactId, connectionId: ticket.connectionId, queueId: ticket.queueId, userId: ticket.userId },
    attempts: JOB_ATTEMPTS,
  });
  return "scheduled";
}

const isClientError = (err: unknown) => {
  const code = (err as { code?: number }).code;
  return typeof code === "number" && code >= 400 && code < 500;
};
const errorCode = (err: unknown) => {
  const e = err as { type?: string; message?: string };
  return e.type?.startsWith("ERR_") ? e.type : (e.message ?? "ERR_UNIDENTIFIED");
};

/**
 * Sends one of the survey's texts to its contact, keyed by survey and kind: on the survey's
 * ticket while the core takes a just-closed ticket (afterClose), later on the contact's newest
 * closed ticket there (sendTo "closed": no ticket opened for it).
 */
export async function say(api: CoreApi, tenantId: number, s: SurveyRow, kind: "request" | "thanks" | "invalid" | "timeout", text: string): Promise<void> {
  const idempotencyKey = messageKey(kind, s.id);
  try {
    await api.messages.send({ tenantId, ticketId: s.ticketId, afterClose: true, body: text, idempotencyKey });
  } catch (err) {
    if ((err as { type?: string }).type !== "ERR_TICKET_NOT_FOUND") throw err;
    await api.messages.sendTo({ tenantId, contactId: s.contactId, connectionId: s.connectionId, ticket: "closed", body: text, idempotencyKey });
  }
}

export async function textFor(api: CoreApi, tenantId: number, s: SurveyRow, template: string): Promise<string> {
  const contact = await api.contacts.get({ tenantId, id: s.contactId }).catch(() => ({ name: "" }));
  return fillText(template, { name: contact.name ?? "", max: s.scale });
}

type RequestData = { ticketId: number; closedAt: number; via: CloseVia; contactId: number; connectionId: number; queueId: number | null; userId: number | null };

export async function runRequest(ctx: Context, f: Flow, job: JobDelivery): Promise<string> {
  const tenantId = job.tenantId;
  const d = job.data as RequestData;
  const settings = await f.settings.get(tenantId);
  const existing = await f.surveys.forClose(tenantId, { ticketId: d.ticketId, closedAt: d.closedAt, closedVia: d.via, contactId: d.contactId, connectionId: d.connectionId, queueId: d.queueId ?? null, userId: d.userId ?? null, scale: settings.scale });
  if (existing.state !== "asking") return existing.state;
  // Turned off between the close and now: nothing goes (the survey stays unasked, "failed").
  if (!settings.enabled) {
    await f.surveys.move(tenantId, existing.id, "asking", { state: "failed", error: "disabled", endedAt: job.dueAt });
    return "disabled";
  }
  const api = coreApi(ctx);
  const s = existing;
  await replaceOlder(ctx, f, tenantId, s, job.dueAt);
  let expiresAt: number;
  try {
    // The claim's end, by the core's clock, is the survey's: a job run late (a restart) still waits the whole timeout.
    ({ expiresAt } = await api.inbound.claim({ tenantId, contactId: s.contactId, connectionId: s.connectionId, ref: claimRef(s.id), ticketId: s.ticketId, minutes: settings.timeoutMinutes }));
    await say(api, tenantId, s, "request", await textFor(api, tenantId, s, settings.requestMessage));
  } catch (err) {
    // The core or its channel unreachable: the scheduler runs the job again (same keys).
    if (!isClientError(err) && job.attempt < JOB_ATTEMPTS) throw err;
    await api.inbound.release({ tenantId, contactId: s.contactId, connectionId: s.connectionId }).catch(() => undefined);
    await f.surveys.move(tenantId, s.id, "asking", { state: "failed", error: errorCode(err), endedAt: job.dueAt });
    return "failed";
  }
  // The timeout first: a crash before the state's change is redone by the retry (same key and time: unchanged).
  await f.jobs.schedule(ctx, { name: TIMEOUT_JOB, key: `survey-${s.id}`, tenantId, runAt: expiresAt, data: { id: s.id }, attempts: JOB_ATTEMPTS });
  const askedAt = expiresAt - settings.timeoutMinutes * 60_000;
  const moved = await f.surveys.move(tenantId, s.id, "asking", { state: "waiting", askedAt, expiresAt });
  // A reply quicker than this record moved it already: its time of asking is still this one.
  if (!moved) await f.surveys.update(tenantId, s.id, { askedAt, expiresAt });
  return "waiting";
}

/** A contact asked again on the same connection: the older survey still waiting ends, replaced. */
async function replaceOlder(ctx: Context, f: Flow, tenantId: number, s: SurveyRow, at: number): Promise<void> {
  for (const old of await f.surveys.openFor(tenantId, s.contactId, s.connectionId)) {
    if (old.id === s.id) continue;
    if (await f.surveys.move(tenantId, old.id, old.state, { state: "replaced", endedAt: at })) {
      await f.jobs.cancel(ctx, { name: TIMEOUT_JOB, key: `survey-${old.id}`, tenantId });
    }
  }
}

export async function runTimeout(ctx: Context, f: Flow, job: JobDelivery): Promise<string> {
  const tenantId = job.tenantId;
  const s = await f.surveys.find(tenantId, Number((job.data as { id?: unknown }).id));
  if (!s || s.expiresAt !== job.dueAt) return "stale";
  const redo = s.state === "timedOut" && s.endedAt === job.dueAt; // a run that stopped after the state's change
  if (!redo) {
    if (!OPEN_STATES.includes(s.state) || !(await f.surveys.move(tenantId, s.id, s.state, { state: "timedOut", endedAt: job.dueAt }))) return "stale";
  }
  const api = coreApi(ctx);
  await api.inbound.release({ tenantId, contactId: s.contactId, connectionId: s.connectionId }).catch((err) => f.warn(`claim of survey ${s.id} not released: ${(err as Error).message}`));
  const settings: NpsSettings = await f.settings.get(tenantId);
  try {
    await say(api, tenantId, s, "timeout", await textFor(api, tenantId, s, settings.timeoutMessage));
  } catch (err) {
    if (!isClientError(err) && job.attempt < JOB_ATTEMPTS) throw err;
    f.warn(`timeout message of survey ${s.id} not sent: ${errorCode(err)}`);
  }
  return "timedOut";
}
