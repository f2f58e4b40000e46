/** Spec §4 Campaign transitions and §5 Campaign rules, each one (pure: no services). */
import { CAMPAIGN_STATUSES, type CampaignStatus } from "@openatende/plugin-sdk";
import { CampaignErrors, engineManifestErrors } from "./errors";
import { assertDeletable, assertDraft, assertEditable, cancel, pause, resume, schedule } from "./rules";

const errors = new CampaignErrors("CAMPAIGN_TEST");
const NOW = Date.UTC(2026, 10, 24, 12, 30, 20);
const at = (status: CampaignStatus, startedAt: number | null = null) => ({ status, startAt: NOW + 3_600_000, startedAt });

function codeOf(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (err) {
    return (err as { type: string }).type;
  }
}

/** Which statuses a rule lets through. */
const allowed = (f: (s: CampaignStatus) => unknown) => CAMPAIGN_STATUSES.filter((s) => codeOf(() => f(s)) === null);

describe("campaign status rules", () => {
  it("edits only pending or canceled campaigns", () => {
    expect(allowed((s) => assertEditable(at(s), errors))).toEqual(["pending", "canceled"]);
    expect(codeOf(() => assertEditable(at("processing"), errors))).toBe("ERR_CAMPAIGN_NOT_EDITABLE");
  });

  it("deletes only pending or canceled campaigns with no linked contacts", () => {
    expect(allowed((s) => assertDeletable(at(s), 0, errors))).toEqual(["pending", "canceled"]);
    expect(codeOf(() => assertDeletable(at("pending"), 3, errors))).toBe("ERR_CAMPAIGN_TEST_HAS_CONTACTS");
    expect(codeOf(() => assertDeletable(at("finished"), 0, errors))).toBe("ERR_CAMPAIGN_TEST_NOT_DELETABLE");
  });

  it("pauses only scheduled or processing campaigns", () => {
    expect(allowed((s) => pause(at(s), errors))).toEqual(["scheduled", "processing"]);
    expect(pause(at("processing"), errors)).toBe("paused");
    expect(codeOf(() => pause(at("pending"), errors))).toBe("ERR_CAMPAIGN_TEST_NOT_PAUSABLE");
  });

  it("resumes only paused campaigns: to scheduled before it started, to processing after", () => {
    expect(allowed((s) => resume(at(s), errors))).toEqual(["paused"]);
    expect(resume(at("paused"), errors)).toBe("scheduled");
    expect(resume(at("paused", NOW - 1000), errors)).toBe("processing");
    expect(codeOf(() => resume(at("scheduled"), errors))).toBe("ERR_CAMPAIGN_TEST_NOT_RESUMABLE");
  });

  it("schedules with linked contacts and a start not in the past", () => {
    expect(allowed((s) => schedule(at(s), 2, NOW, errors))).toEqual(["pending", "canceled"]);
    expect(schedule(at("pending"), 2, NOW, errors)).toBe("scheduled");
    expect(codeOf(() => schedule(at("pending"), 0, NOW, errors))).toBe("ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE");
    expect(codeOf(() => schedule({ ...at("pending"), startAt: NOW - 61_000 }, 2, NOW, errors))).toBe("ERR_CAMPAIGN_PAST_DATE");
    // The current minute is not the past (a form's "12:30" picked at 12:30:20).
    expect(schedule({ ...at("pending"), startAt: Date.UTC(2026, 10, 24, 12, 30) }, 2, NOW, errors)).toBe("scheduled");
    expect(codeOf(() => schedule(at("processing"), 2, NOW, errors))).toBe("ERR_CAMPAIGN_TEST_NOT_SCHEDULABLE");
  });

  it("cancels anything not finished or canceled", () => {
    expect(allowed((s) => cancel(at(s), errors))).toEqual(["pending", "scheduled", "processing", "paused"]);
    expect(codeOf(() => cancel(at("finished"), errors))).toBe("ERR_CAMPAIGN_TEST_NOT_CANCELABLE");
  });
});

describe("campaign draft rules", () => {
  const draft = { name: "Natal", startAt: NOW + 60_000, connectionIds: [1], minIntervalSeconds: 5, maxIntervalSeconds: 20 };
  it("accepts a start from the current minute on and an interval 0 ≤ min ≤ max ≤ 3600", () => {
    expect(codeOf(() => assertDraft(draft, NOW, errors))).toBeNull();
    expect(codeOf(() => assertDraft({ ...draft, minIntervalSeconds: 0, maxIntervalSeconds: 0 }, NOW, errors))).toBeNull();
  });
  it("refuses a past start, a bad date and a bad interval with their codes", () => {
    expect(codeOf(() => assertDraft({ ...draft, startAt: NOW - 120_000 }, NOW, errors))).toBe("ERR_CAMPAIGN_PAST_DATE");
    expect(codeOf(() => assertDraft({ ...draft, startAt: Number.NaN }, NOW, errors))).toBe("ERR_CAMPAIGN_DATE_INVALID");
    expect(codeOf(() => assertDraft({ ...draft, minIntervalSeconds: 30, maxIntervalSeconds: 10 }, NOW, errors))).toBe("ERR_INVALID_INTERVAL");
    expect(codeOf(() => assertDraft({ ...draft, minIntervalSeconds: -1 }, NOW, errors))).toBe("ERR_INVALID_INTERVAL");
    expect(codeOf(() => assertDraft({ ...draft, maxIntervalSeconds: 3601 }, NOW, errors))).toBe("ERR_INVALID_INTERVAL");
  });
});

describe("the engine's own codes", () => {
  it("are the plugin's, with a 4xx status and texts in four languages", () => {
    const declared = engineManifestErrors("CAMPAIGN_TEST");
    expect(Object.keys(declared).every((c) => /^ERR_CAMPAIGN_TEST_[A-Z_]+$/.test(c))).toBe(true);
    for (const def of Object.values(declared)) {
      expect(def.status).toBeGreaterThanOrEqual(400);
      expect(def.status).toBeLessThan(500);
      for (const loc of ["pt-BR", "en", "es", "ru"] as const) expect(def[loc].title && def[loc].detail).toBeTruthy();
    }
  });
});
