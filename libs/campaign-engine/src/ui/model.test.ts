import { CAMPAIGN_STATUSES } from "@openatende/plugin-sdk/src/campaign-contract";
import { actionsFor, fieldErrorsOf, fromLocalInput, progressPercent, startInPast, toLocalInput, withoutChanged } from "./model";
import { campaignTexts } from "./texts";

describe("campaign screens' model", () => {
  it("offers each status only the actions spec §4 allows", () => {
    const offered = Object.fromEntries(CAMPAIGN_STATUSES.map((s) => [s, actionsFor(s)]));
    expect(offered).toEqual({
      pending: ["edit", "schedule", "delete", "cancel"],
      scheduled: ["pause", "cancel"],
      processing: ["pause", "cancel"],
      paused: ["resume", "cancel"],
      canceled: ["edit", "schedule", "delete"],
      finished: [],
    });
  });

  it("measures progress by the contacts no longer to send", () => {
    const c = { contacts: 8, toSend: 6, delivered: 2, received: 1, read: 1, played: 0, failed: 0 };
    expect(progressPercent(c)).toBe(25);
    expect(progressPercent({ ...c, contacts: 0, toSend: 0 })).toBe(0);
    expect(progressPercent({ ...c, toSend: 0 })).toBe(100);
  });

  it("puts a server error under the fields it names, with its translated text", () => {
    expect(fieldErrorsOf({ code: "ERR_CAMPAIGN_PAST_DATE", detail: "Data no passado", data: {} })).toEqual({ startAt: "Data no passado" });
    expect(fieldErrorsOf({ code: "ERR_INVALID_INTERVAL", title: "Intervalo", detail: "", data: {} })).toEqual({ minIntervalSeconds: "Intervalo", maxIntervalSeconds: "Intervalo" });
    expect(fieldErrorsOf({ code: "ERR_VALIDATION", detail: "Inválido", data: { errors: [{ field: "name" }, { field: "content.messages[1]" }] } })).toEqual({ name: "Inválido", "messages.1": "Inválido" });
    expect(fieldErrorsOf({ code: "ERR_CAMPAIGN_WHATSAPP_CONTENT_INVALID", detail: "Verifique", data: { problems: { "messages.0": "X" } } })).toEqual({ "messages.0": "Verifique" });
    expect(fieldErrorsOf({ code: "ERR_CAMPAIGN_NOT_FOUND", detail: "x", data: {} })).toEqual({});
    expect(fieldErrorsOf(new Error("network"))).toEqual({});
  });

  it("reads and writes the date-time input in local time, refusing impossible dates", () => {
    const ms = new Date(2026, 11, 24, 9, 5).getTime();
    expect(toLocalInput(ms)).toBe("2026-12-24T09:05");
    expect(fromLocalInput("2026-12-24T09:05")).toBe(ms);
    expect(fromLocalInput("2026-02-30T10:00")).toBeNull();
    expect(fromLocalInput("")).toBeNull();
  });

  it("lets the start be the current minute, not an earlier one", () => {
    const now = new Date(2026, 0, 1, 10, 30, 45).getTime();
    expect(startInPast(new Date(2026, 0, 1, 10, 30).getTime(), now)).toBe(false);
    expect(startInPast(new Date(2026, 0, 1, 10, 29).getTime(), now)).toBe(true);
  });

  it("has every text in the four languages", () => {
    const keys = (o: Record<string, unknown>, p = ""): string[] => Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));
    const base = keys(campaignTexts["pt-BR"]).sort();
    for (const l of ["en", "es", "ru"] as const) expect(keys(campaignTexts[l]).sort()).toEqual(base);
  });
});

describe("withoutChanged", () => {
  const errors = { name: "Nome", minIntervalSeconds: "Intervalo", maxIntervalSeconds: "Intervalo", "template.name": "Modelo", "buttons.1": "Botão" };
  it("drops the errors of what changed and keeps the others until the next save", () => {
    expect(withoutChanged(errors, ["name"])).toEqual({ minIntervalSeconds: "Intervalo", maxIntervalSeconds: "Intervalo", "template.name": "Modelo", "buttons.1": "Botão" });
    expect(withoutChanged(errors, ["minIntervalSeconds"])).toEqual({ name: "Nome", "template.name": "Modelo", "buttons.1": "Botão" });
    expect(withoutChanged(errors, ["content"])).toEqual({ name: "Nome", minIntervalSeconds: "Intervalo", maxIntervalSeconds: "Intervalo" });
  });
  it("answers the same object when nothing of it changed (no new render)", () => {
    expect(withoutChanged(errors, ["startAt"])).toBe(errors);
  });
});
