/**
 * The contact's messages while a survey waits (the core's onClaimedInbound hook):
 *
 * - a valid reply (parseReply: a whole number from 0 to the survey's maximum) answers the
 *   survey (score and group), gets the thanks, and ends the claim;
 * - the first invalid reply gets the invalid message and the survey waits again (retry);
 * - the second invalid reply ends the survey ("invalid") and is not consumed: the message
 *   opens a ticket as usual, as does any message of a survey no longer waiting.
 *
 * The same message handed over twice (the same inbound id) is answered as the first time,
 * with nothing sent again. A text that cannot be sent is logged: the survey's state is what
 * the contact's reply made it, and the hook never fails (that would open a ticket).
 */
import type { Context } from "moleculer";
import { coreApi, DuplicateRowError, type ClaimedInbound, type ClaimedInboundReply } from "@openatende/plugin-sdk";
import { say, surveyOfRef, textFor, TIMEOUT_JOB, type Flow } from "./flow";
import { groupOf, parseReply } from "./scale";
import { OPEN_STATES, type ReplyOutcome, type SurveyRow } from "./store";

const REPLY: Record<ReplyOutcome, ClaimedInboundReply> = {
  valid: { consumed: true, release: true },
  invalid: { consumed: true },
  released: { consumed: false, release: true },
};

export async function onClaimedInbound(ctx: Context, f: Flow, inbound: ClaimedInbound): Promise<ClaimedInboundReply> {
  const tenantId = inbound.tenantId;
  const replies = f.surveys.replies(tenantId);
  const seen = await replies.get({ inboundId: inbound.id });
  if (seen) return REPLY[seen.outcome];
  const id = surveyOfRef(inbound.ref);
  const s = id ? await f.surveys.find(tenantId, id) : null;
  // "asking": the request job claimed and sent, and has not yet recorded it (the reply was quick).
  if (!s || !(OPEN_STATES.includes(s.state) || s.state === "asking") || s.contactId !== inbound.contact.id || s.connectionId !== inbound.connectionId) return REPLY.released;

  const score = parseReply(inbound.message.body, s.scale);
  const outcome: ReplyOutcome = score !== null ? "valid" : s.state === "retry" ? "released" : "invalid";
  try {
    await replies.insert({ inboundId: inbound.id, surveyId: s.id, body: inbound.message.body ?? null, outcome, at: inbound.at });
  } catch (err) {
    if (!(err instanceof DuplicateRowError)) throw err;
    const first = await replies.get({ inboundId: inbound.id }); // the same message, handled at the same moment
    return REPLY[first?.outcome ?? "released"];
  }
  const values: Partial<SurveyRow> =
    outcome === "valid" ? { state: "answered", score, npsGroup: groupOf(score!, s.scale), answeredAt: inbound.at, endedAt: inbound.at } : outcome === "invalid" ? { state: "retry" } : { state: "invalid", endedAt: inbound.at };
  if (!(await f.surveys.move(tenantId, s.id, s.state, values))) {
    // Another message or the timeout moved it first: this one is not the survey's.
    await replies.update({ inboundId: inbound.id }, { outcome: "released" });
    return REPLY.released;
  }
  if (outcome !== "invalid") await f.jobs.cancel(ctx, { name: TIMEOUT_JOB, key: `survey-${s.id}`, tenantId }).catch((err) => f.warn(`timeout of survey ${s.id} not cancelled: ${(err as Error).message}`));
  if (outcome !== "released") {
    const api = coreApi(ctx);
    const settings = await f.settings.get(tenantId);
    const kind = outcome === "valid" ? "thanks" : "invalid";
    try {
      await say(api, tenantId, s, kind, await textFor(api, tenantId, s, outcome === "valid" ? settings.thanksMessage : settings.invalidMessage));
    } catch (err) {
      f.warn(`${kind} message of survey ${s.id} not sent: ${(err as Error).message}`);
    }
  }
  return REPLY[outcome];
}
