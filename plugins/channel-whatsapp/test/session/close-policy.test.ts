/** Close code → action (WHATSAPP.md 1.2) and the backoff's growth, jitter and cap. */
import { DisconnectReason } from "@whiskeysockets/baileys";
import { Boom } from "@hapi/boom";
import { backoffDelay, closeAction, closeCode } from "../../src/session/close-policy";

const linked = { registered: true, qrRounds: 0, maxQrRounds: 3 };

describe("close policy", () => {
  it.each([
    [DisconnectReason.restartRequired, "restart"],
    [DisconnectReason.connectionLost, "backoff"],
    [DisconnectReason.connectionClosed, "backoff"],
    [DisconnectReason.badSession, "backoff"],
    [DisconnectReason.unavailableService, "backoff"],
    [DisconnectReason.loggedOut, "logged-out"],
    [DisconnectReason.forbidden, "banned"],
    [DisconnectReason.connectionReplaced, "replaced"],
    [DisconnectReason.multideviceMismatch, "repair"],
    [405, "version"],
    [undefined, "backoff"],
  ])("code %s → %s", (code, kind) => {
    expect(closeAction(code, linked).kind).toBe(kind);
  });

  it("408 while unlinked with the QR rounds used up stops instead of asking for more codes", () => {
    expect(closeAction(408, { registered: false, qrRounds: 3, maxQrRounds: 3 }).kind).toBe("qr-expired");
    expect(closeAction(408, { registered: false, qrRounds: 1, maxQrRounds: 3 }).kind).toBe("backoff");
  });

  it("reads the code of Baileys' Booms", () => {
    expect(closeCode(new Boom("Connection Terminated", { statusCode: 428 }))).toBe(428);
    expect(closeCode(new Error("plain"))).toBeUndefined();
    expect(closeCode(undefined)).toBeUndefined();
  });

  it("backs off exponentially with half of it random, capped", () => {
    const opts = { baseMs: 2000, maxMs: 60_000 };
    expect(backoffDelay(1, opts, () => 0)).toBe(1000);
    expect(backoffDelay(1, opts, () => 1)).toBe(2000);
    expect(backoffDelay(3, opts, () => 1)).toBe(8000);
    expect(backoffDelay(3, opts, () => 0.5)).toBe(6000);
    expect(backoffDelay(12, opts, () => 1)).toBe(60_000);
    expect(backoffDelay(40, opts, () => 0)).toBe(30_000);
  });
});
