/**
 * The campaign's statuses and their rules (spec §4 Campaign, §5 Campaign), as pure functions
 * of a campaign's status, start and linked contacts; each answers the next status or throws the
 * rule's code. The store applies them inside the transaction that changes the campaign.
 *
 * - edit: only pending or canceled;
 * - delete: only pending or canceled, and with no linked contacts;
 * - pause: only scheduled or processing;
 * - resume: only paused — back to scheduled if it never started, else to processing;
 * - schedule: pending or canceled, with linked contacts and a start not in the past;
 * - cancel: anything not finished or canceled already;
 * - start (the engine, when the start time comes): scheduled → processing;
 * - finish (the engine, when no contact is left to send): processing → finished.
 */
import { CAMPAIGN_INTERVAL_MAX_SECONDS, CAMPAIGN_MAX_VARIANTS, type CampaignStatus } from "@openatende/plugin-sdk";
import type { CampaignErrors } from "./errors";

export interface RuleSubject {
  status: CampaignStatus;
  startAt: number;
  startedAt: number | null;
}

const EDITABLE: CampaignStatus[] = ["pending", "canceled"];

export function canEdit(status: CampaignStatus): boolean {
  return EDITABLE.includes(status);
}

export function assertEditable(c: RuleSubject, errors: CampaignErrors): void {
  if (!canEdit(c.status)) throw errors.core("notEditable", { status: c.status });
}

export function assertDeletable(c: RuleSubject, linkedContacts: number, errors: CampaignErrors): void {
  if (!canEdit(c.status)) throw errors.own("NOT_DELETABLE", { status: c.status });
  if (linkedContacts > 0) throw errors.own("HAS_CONTACTS", { contacts: linkedContacts });
}

export function pause(c: RuleSubject, errors: CampaignErrors): CampaignStatus {
  if (c.status !== "scheduled" && c.status !== "processing") throw errors.own("NOT_PAUSABLE", { status: c.status });
  return "paused";
}

export function resume(c: RuleSubject, errors: CampaignErrors): CampaignStatus {
  if (c.status !== "paused") throw errors.own("NOT_RESUMABLE", { status: c.status });
  return c.startedAt === null ? "scheduled" : "processing";
}

export function schedule(c: RuleSubject, linkedContacts: number, now: number, errors: CampaignErrors): CampaignStatus {
  if (!canEdit(c.status)) throw errors.own("NOT_SCHEDULABLE", { status: c.status });
  if (linkedContacts <= 0) throw errors.core("contactsRequired");
  if (c.startAt < startFloor(now)) throw errors.core("pastDate");
  return "scheduled";
}

export function cancel(c: RuleSubject, errors: CampaignErrors): CampaignStatus {
  if (c.status === "finished" || c.status === "canceled") throw errors.own("NOT_CANCELABLE", { status: c.status });
  return "canceled";
}

/**
 * The earliest start accepted: the current minute (a form's "HH:MM" picked now is not in the
 * past), so a start at 10:00 is accepted until 10:00:59.
 */
export function startFloor(now: number): number {
  return now - (now % 60_000);
}

export interface DraftFields {
  name: string;
  startAt: number;
  connectionIds: number[];
  minIntervalSeconds: number;
  maxIntervalSeconds: number;
}

/** The shared fields' rules (spec §5: name and the other fields required; start not earlier than now; a valid interval). */
export function assertDraft(d: DraftFields, now: number, errors: CampaignErrors): void {
  if (!Number.isFinite(d.startAt) || d.startAt <= 0) throw errors.core("dateInvalid");
  if (d.startAt < startFloor(now)) throw errors.core("pastDate");
  const { minIntervalSeconds: min, maxIntervalSeconds: max } = d;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min || max > CAMPAIGN_INTERVAL_MAX_SECONDS) throw errors.core("interval", { min, max });
}

/** A content's variant count within 1…3. */
export function validVariantCount(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= CAMPAIGN_MAX_VARIANTS;
}
