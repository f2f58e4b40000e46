/**
 * One session's state machine on a fake socket (Baileys' own event emitter and Booms), a fake
 * clock and the real auth store: each close reason leads to its action, QR rounds are capped,
 * pairing codes are asked when unlinked, reset frees the connection, a restart resumes
 * without a QR, the stuck and deaf timers rebuild the socket, and there is never more than
 * one live socket.
 */
import { initAuthCreds } from "@whiskeysockets/baileys";
import { settle, until } from "./support/fake-clock";
import { pluginDatabase, type TestDb } from "./support/db";
import { sessionKit, type Kit } from "./support/session-kit";
import type { FakeSocket } from "./support/fake-socket";

let db: TestDb;
let conn = 0;
jest.setTimeout(30_000);

beforeAll(async () => {
  db = await pluginDatabase("sqlite");
});
afterAll(async () => {
  await db?.drop();
});

const kit = (o: Omit<Parameters<typeof sessionKit>[0], "data" | "connectionId"> = {}) => sessionKit({ data: db.data, connectionId: ++conn, ...o });

/** A session whose stored creds are linked, started and open. */
async function openLinked(o: Parameters<typeof kit>[0] = {}): Promise<Kit & { sock: FakeSocket }> {
  const k = kit(o);
  const creds = initAuthCreds();
  creds.registered = true;
  creds.me = { id: "5511900000000:3@s.whatsapp.net" };
  await k.store.saveCreds(creds);
  await k.session.start();
  const sock = k.factory.last;
  sock.open();
  await settle();
  expect(k.last().status).toBe("connected");
  return Object.assign(k, { sock });
}

describe("close reasons", () => {
  it("515 after pairing: a new socket at once, with the creds the pairing saved, then connected", async () => {
    const k = kit();
    await k.session.start();
    const first = k.factory.last;
    first.qr();
    await until("the QR status", () => k.reports.some((r) => r.status === "qrcode"));
    expect(k.reports.find((r) => r.status === "qrcode")!.qrcode).toMatch(/^data:image\/png;base64,/);
    first.paired();
    await settle();
    expect(k.last()).toMatchObject({ status: "pairing" });
    expect(k.lastKey()).toBe("linking");
    first.close(515, "Stream Errored (restart required)");
    await until("the second socket", () => k.factory.sockets.length === 2);
    const second = k.factory.last;
    expect(first.ended && first.listeners).toBe(0);
    expect(second.opts.auth.creds.registered).toBe(true);
    expect((await k.store.loadCreds())?.registered).toBe(true);
    second.open();
    await settle();
    expect(k.last()).toMatchObject({ status: "connected", detail: "[connected] 5511900000000" });
  });

  it("408, 428, 500 and 503: a reconnect after a jittered backoff that grows, is capped and starts again after an open", async () => {
    const k = await openLinked({ options: { backoff: { baseMs: 2000, maxMs: 8000 } } });
    const delays: number[] = [];
    for (const code of [408, 428, 500, 503, 428]) {
      const before = k.factory.sockets.length;
      k.factory.last.close(code);
      await settle();
      expect(k.last().status).toBe("timeout");
      expect(k.lastKey()).toBe("reconnecting");
      const wait = k.clock.nextIn()!;
      delays.push(wait);
      await k.clock.advance(wait - 1);
      expect(k.factory.sockets.length).toBe(before);
      await k.clock.advance(1);
      await until("the next socket", () => k.factory.sockets.length === before + 1);
      expect(k.last().status).toBe("connecting");
    }
    // random() = 0.5: three quarters of min(max, base·2^(n-1)).
    expect(delays).toEqual([1500, 3000, 6000, 6000, 6000]);
    k.factory.last.open();
    await settle();
    k.factory.last.close(428);
    await settle();
    expect(k.clock.nextIn()).toBe(1500);
    expect(k.session.snapshot().reconnects).toBe(6);
  });

  it.each([
    [401, "logged-out"],
    [403, "banned"],
  ])("%s: the session is wiped, stops, says why and never reconnects", async (code, key) => {
    const k = await openLinked();
    k.sock.close(code, code === 401 ? "Connection Failure" : "Forbidden");
    await until("the stop", () => k.last().status === "disconnected");
    expect(k.lastKey()).toBe(key);
    expect(await k.store.hasSession()).toBe(false);
    expect(k.session.running).toBe(false);
    await k.clock.advance(3_600_000);
    expect(k.factory.sockets).toHaveLength(1);
  });

  it("440 while this node holds the lock: one delayed retry, and a second 440 stops in conflict", async () => {
    const k = await openLinked({ lock: () => "mine" });
    k.sock.close(440, "Stream Errored (conflict)");
    await until("the conflict status", () => k.last().status === "conflict");
    expect(k.last().detail).toMatch(/one more attempt in 60 s/);
    await k.clock.advance(59_999);
    expect(k.factory.sockets).toHaveLength(1);
    await k.clock.advance(1);
    await until("the retry", () => k.factory.sockets.length === 2);
    k.factory.last.open();
    await settle();
    k.factory.last.close(440, "Stream Errored (conflict)");
    await until("the stop", () => !k.session.running);
    expect(k.last().status).toBe("conflict");
    expect(k.last().detail).toMatch(/again after one retry/);
    await k.clock.advance(3_600_000);
    expect(k.factory.sockets).toHaveLength(2);
    expect(await k.store.hasSession()).toBe(true);
  });

  it("440 after a long stable open may be retried once again", async () => {
    const k = await openLinked({ lock: () => "mine", options: { stableMs: 600_000 } });
    k.sock.close(440);
    await until("the retry timer", () => k.clock.pending > 0 && k.last().status === "conflict");
    await k.clock.advance(60_000);
    await until("the retry", () => k.factory.sockets.length === 2);
    k.factory.last.open();
    await settle();
    await k.clock.advance(600_000);
    k.factory.last.close(440);
    await until("a second retry", () => /one more attempt/.test(k.last().detail ?? ""));
    expect(k.session.running).toBe(true);
  });

  it("440 when another node holds the lock: this one lets go without a word (its status stands)", async () => {
    const k = await openLinked({ lock: () => "other" });
    const reported = k.reports.length;
    k.sock.close(440);
    await until("the release", () => k.fencedOff === 1);
    expect(k.reports).toHaveLength(reported);
    expect(k.session.running).toBe(false);
    await k.clock.advance(3_600_000);
    expect(k.factory.sockets).toHaveLength(1);
  });

  it("440 while nobody holds the lock: conflict, no retry", async () => {
    const k = await openLinked({ lock: () => "none" });
    k.sock.close(440);
    await until("the conflict", () => !k.session.running);
    expect(k.last().status).toBe("conflict");
    await k.clock.advance(3_600_000);
    expect(k.factory.sockets).toHaveLength(1);
  });

  it("411: the session is wiped and links again with a new QR", async () => {
    const k = await openLinked();
    const oldKey = Buffer.from(k.sock.opts.auth.creds.noiseKey.public).toString("hex");
    k.sock.close(411, "multidevice mismatch");
    await until("a new socket", () => k.factory.sockets.length === 2);
    const fresh = k.factory.last.opts.auth.creds;
    expect(fresh.registered).toBe(false);
    expect(Buffer.from(fresh.noiseKey.public).toString("hex")).not.toBe(oldKey);
    expect(await k.store.hasSession()).toBe(false);
    k.factory.last.qr();
    await until("the QR", () => k.last().status === "qrcode");
  });

  it("405: stops with a detail about the WhatsApp version; no reconnect loop", async () => {
    const k = kit();
    await k.session.start();
    k.factory.last.close(405, "Connection Failure");
    await settle();
    expect(k.last()).toMatchObject({ status: "disconnected" });
    expect(k.lastKey()).toBe("wa-version");
    await k.clock.advance(3_600_000);
    expect(k.factory.sockets).toHaveLength(1);
  });
});

describe("linking", () => {
  it("shows at most 3 QR codes, then stops in disconnected [qr-expired] with the socket ended", async () => {
    const k = kit();
    await k.session.start();
    const sock = k.factory.last;
    for (let i = 1; i <= 3; i++) {
      sock.qr(`2@ref${i}`);
      await until(`QR ${i}`, () => k.reports.filter((r) => r.status === "qrcode").length === i);
      expect(k.last().detail).toBe(`[qr] round ${i} of 3`);
    }
    const codes = k.reports.filter((r) => r.status === "qrcode").map((r) => r.qrcode);
    expect(new Set(codes).size).toBe(3);
    sock.qr("2@ref4");
    await settle();
    expect(k.last().status).toBe("disconnected");
    expect(k.lastKey()).toBe("qr-expired");
    expect(sock.ended).toBe(true);
    await k.clock.advance(3_600_000);
    expect(k.factory.sockets).toHaveLength(1);
  });

  it("with a pairing phone, the first QR turns into a pairing code request; the code is reported once", async () => {
    const k = kit({ settings: { pairingPhone: "+55 (11) 98888-7777" } });
    await k.session.start();
    const sock = k.factory.last;
    sock.qr();
    await until("the code", () => k.last().status === "pairing");
    expect(sock.pairingRequests).toEqual(["5511988887777"]);
    expect(k.last().detail).toMatch(/^\[pairing-code\] K7QX-2MPA/);
    sock.qr();
    sock.qr();
    await settle();
    expect(sock.pairingRequests).toHaveLength(1);
    expect(k.reports.some((r) => r.status === "qrcode")).toBe(false);
  });

  it("a pairing code asked while a QR shows comes from the current socket; a linked session refuses", async () => {
    const k = kit();
    await k.session.start();
    k.factory.last.qr();
    await until("the QR", () => k.last().status === "qrcode");
    await expect(k.session.requestPairingCode("5511988887777")).resolves.toBe("K7QX2MPA");
    expect(k.factory.sockets).toHaveLength(1);
    expect(k.factory.last.pairingRequests).toEqual(["5511988887777"]);
    k.factory.last.open();
    await settle();
    await expect(k.session.requestPairingCode("5511988887777")).rejects.toMatchObject({ type: "ERR_WHATSAPP_ALREADY_LINKED", code: 409 });
  });

  it("a pairing code asked after the QR rounds ran out starts a socket for it", async () => {
    const k = kit({ options: { maxQrRounds: 1 } });
    await k.session.start();
    k.factory.last.qr();
    k.factory.last.qr();
    await until("the stop", () => !k.session.running);
    k.factory.onCreate = (s) => s.qr();
    await expect(k.session.requestPairingCode("5511988887777")).resolves.toBe("K7QX2MPA");
    expect(k.factory.sockets).toHaveLength(2);
    expect(k.last().status).toBe("pairing");
  });

  it("reset logs a linked session out, wipes it and starts a new link", async () => {
    const k = await openLinked();
    await k.session.reset();
    expect(k.sock.loggedOut).toBe(true);
    expect(k.sock.ended).toBe(true);
    expect(await k.store.hasSession()).toBe(false);
    expect(k.factory.sockets).toHaveLength(2);
    expect(k.factory.last.opts.auth.creds.registered).toBe(false);
    expect(k.last().status).toBe("connecting");
    k.factory.last.qr();
    await until("a new QR", () => k.last().status === "qrcode");
  });

  it("a restart resumes without a QR: another session over another connection to the store opens with the saved creds", async () => {
    const first = kit();
    await first.session.start();
    first.factory.last.qr();
    await settle();
    first.factory.last.paired();
    first.factory.last.close(515);
    await until("the restart", () => first.factory.sockets.length === 2);
    first.factory.last.open();
    await settle();
    const noise = Buffer.from(first.factory.last.opts.auth.creds.noiseKey.public).toString("hex");
    first.session.stop(false);
    expect(first.factory.last.loggedOut).toBe(false);

    const again = sessionKit({ data: await db.open(), connectionId: conn });
    await again.session.start();
    const creds = again.factory.last.opts.auth.creds;
    expect(creds.registered).toBe(true);
    expect(Buffer.from(creds.noiseKey.public).toString("hex")).toBe(noise);
    again.factory.last.open();
    await settle();
    expect(again.reports.map((r) => r.status)).toEqual(["connecting", "connected"]);
  });
});

describe("watchdog", () => {
  it("a socket stuck in connecting is ended after twice the connect timeout and built again after the backoff", async () => {
    const k = kit({ options: { connectTimeoutMs: 20_000 } });
    await k.session.start();
    await k.clock.advance(39_999);
    expect(k.factory.last.ended).toBe(false);
    await k.clock.advance(1);
    expect(k.factory.sockets[0].ended).toBe(true);
    expect(k.last().status).toBe("timeout");
    expect(k.lastKey()).toBe("stuck-connecting");
    await k.clock.advance(k.clock.nextIn()!);
    await until("the new socket", () => k.factory.sockets.length === 2);
  });

  it("an open socket silent for the deaf time is rebuilt; any event keeps it alive", async () => {
    const k = await openLinked({ options: { deafMs: 600_000 } });
    await k.clock.advance(300_000);
    k.sock.ev.emit("presence.update", { id: "5511988887777@s.whatsapp.net", presences: {} });
    await k.clock.advance(599_000);
    expect(k.sock.ended).toBe(false);
    await k.clock.advance(1000);
    await until("the rebuild", () => k.factory.sockets.length === 2);
    expect(k.sock.ended).toBe(true);
    expect(k.sock.listeners).toBe(0);
    expect(k.reports.some((r) => r.status === "connecting" && /^\[deaf\]/.test(r.detail ?? ""))).toBe(true);
    expect(k.session.snapshot().deafRebuilds).toBe(1);
  });

  it("keeps exactly one live socket through many reconnects; every old one is ended with no listener left", async () => {
    const k = await openLinked();
    const codes = [428, 515, 408, 500, 515, 503, 428, 515, 428, 408, 515, 500];
    for (const code of codes) {
      const n = k.factory.sockets.length;
      k.factory.last.close(code);
      await settle();
      if (k.clock.nextIn() !== undefined && code !== 515) await k.clock.advance(k.clock.nextIn()!);
      await until(`socket ${n + 1}`, () => k.factory.sockets.length === n + 1);
      if (code !== 515) k.factory.last.open();
      await settle();
    }
    expect(k.factory.sockets).toHaveLength(codes.length + 1);
    expect(k.factory.live).toEqual([k.factory.last]);
    for (const s of k.factory.sockets.slice(0, -1)) expect([s.ended, s.listeners]).toEqual([true, 0]);
  });

  it("stop ends the socket without logging out; the stored session stays for the next start", async () => {
    const k = await openLinked();
    k.session.stop();
    expect(k.sock.ended).toBe(true);
    expect(k.sock.loggedOut).toBe(false);
    expect(k.last().status).toBe("disconnected");
    expect(await k.store.hasSession()).toBe(true);
  });
});
