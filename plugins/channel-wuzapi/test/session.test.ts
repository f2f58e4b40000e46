/**
 * A wuzapi session's life through the real core (MariaDB, Redis, the plugin host loading the
 * plugin) against a local wuzapi server: connect sets the webhook and HMAC key then starts the
 * client, the QR code (wuzapi's data:image/png URL) shows until the phone scans it, a pairing
 * code is the alternative, a QR not scanned in time stops the connection, logout on the phone
 * and wuzapi going away are reported, reset links anew, disconnect keeps the session.
 */
import { startCore, createTenant, TestCore, TenantFixture } from "@openatende/core/testkit";
import { FakeWuzapi } from "./fake-wuzapi";
import { connectionOf, connectWuzapi, createWuzapiConnection, HMAC_KEY, pluginService, sleep, statusBecomes, waitFor, LOOPBACK_FAKES } from "./helpers";

describe("wuzapi sessions, real core", () => {
  let api: FakeWuzapi;
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    api = await FakeWuzapi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  const calls = (token: string) => api.requests.filter((r) => r.token === token).map((r) => `${r.method} ${r.path}`);

  it("connect sets the webhook and the HMAC key, starts the client and shows wuzapi's QR code; a new round replaces it; the scan connects", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp QR" });
    expect(c.status).toBe("qrcode");
    expect(c.qrcode).toBe(api.user(c.user.token).client!.qr);
    expect(c.qrcode).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);

    const u = api.user(c.user.token);
    expect(u.webhook).toBe(`${t.config.publicUrl}/api/wuzapi/${c.token}/webhook`);
    expect(u.hmacKey).toBe(HMAC_KEY);
    expect(u.events).toEqual(expect.arrayContaining(["Message", "ReadReceipt", "QR", "Connected", "LoggedOut"]));
    const order = calls(c.user.token);
    expect(order.indexOf("POST /webhook")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("POST /webhook")).toBeLessThan(order.indexOf("POST /session/connect"));
    expect(order.indexOf("POST /session/hmac/config")).toBeLessThan(order.indexOf("POST /session/connect"));
    const connect = api.requests.find((r) => r.token === c.user.token && r.path === "/session/connect")!;
    expect(connect.body).toMatchObject({ Immediate: true });

    // whatsmeow's next QR round comes by webhook: the screen's code changes live.
    const round2 = await api.nextQr(c.user.token, t.url);
    expect(round2).not.toBe(c.qrcode);
    // The plugin reports the new code without holding the webhook's answer: wait for it to land.
    await waitFor("the second QR round on the connection", async () => ((await connectionOf(t, f.admin, c.id)).qrcode === round2 ? true : null), 10_000);

    await api.scan(c.user.token, t.url);
    const on = await statusBecomes(t, f.admin, c.id, "connected");
    expect(on.qrcode).toBeNull();
    expect(on.statusDetail).toContain(u.jid.split("@")[0]);
  });

  it("a linked session connects without a QR code", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp já ligado", linked: true });
    expect(c.status).toBe("connected");
    expect(c.qrcode).toBeNull();
  });

  it("a QR code not scanned in time stops the connection in disconnected, without starting again on its own", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp QR expira" });
    expect(c.status).toBe("qrcode");
    await api.qrTimeout(c.user.token, t.url);
    const off = await statusBecomes(t, f.admin, c.id, "disconnected");
    expect(off.statusDetail).toMatch(/not scanned in time/);
    const connects = () => api.requests.filter((r) => r.token === c.user.token && r.path === "/session/connect").length;
    const before = connects();
    await sleep(Number(pluginService(t).settings.pollMs) * 2 + 200);
    expect(connects()).toBe(before);
    expect((await connectionOf(t, f.admin, c.id)).status).toBe("disconnected");
  });

  it("without the QRTimeout event, the poll finds the client gone and stops the connection the same way", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp QR expira calado" });
    expect(c.status).toBe("qrcode");
    await api.qrTimeout(c.user.token, t.url, { silent: true });
    const off = await statusBecomes(t, f.admin, c.id, "disconnected");
    expect(off.statusDetail).toMatch(/not scanned in time/);
    expect(off.qrcode).toBeNull();
  });

  it("a pairing code for a phone number (admins of the connection's tenant only); entering it on the phone connects", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp código" });
    const r = await t.api.post("/wuzapi/pairphone", { token: c.token, phone: "+55 (11) 98888-7777" }, f.admin);
    expect(r.status).toBe(200);
    const u = api.user(c.user.token);
    expect(u.pairCodes).toEqual([{ phone: "5511988887777", code: r.body.code }]);
    expect(r.body).toEqual({ code: r.body.code, phone: "5511988887777" });
    const pairing = await statusBecomes(t, f.admin, c.id, "pairing");
    expect(pairing.statusDetail).toContain(r.body.code);
    // The QR rounds that follow do not hide the code while it is valid.
    await api.nextQr(c.user.token, t.url);
    await sleep(Number(pluginService(t).settings.pollMs) + 300);
    expect((await connectionOf(t, f.admin, c.id)).status).toBe("pairing");

    expect((await t.api.post("/wuzapi/pairphone", { token: c.token, phone: "+55 11 98888-7777" }, f.agent)).status).toBe(403);
    expect((await t.api.post("/wuzapi/pairphone", { token: c.token, phone: "+55 11 98888-7777" }, null)).status).toBe(401);
    const foreign = await t.api.post("/wuzapi/pairphone", { token: c.token, phone: "+55 11 98888-7777" }, other.admin);
    expect(foreign).toMatchObject({ status: 404, body: { error: "ERR_CONNECTION_NOT_FOUND" } });
    const bad = await t.api.post("/wuzapi/pairphone", { token: c.token, phone: "12-34" }, f.admin);
    expect(bad).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION", data: { field: "phone" } } });
    expect(u.pairCodes).toHaveLength(1);

    await api.scan(c.user.token, t.url);
    await statusBecomes(t, f.admin, c.id, "connected");
    // Linked: wuzapi refuses another code, and the API says why.
    const again = await t.api.post("/wuzapi/pairphone", { token: c.token, phone: "+5511988887777" }, f.admin);
    expect(again).toMatchObject({ status: 409, body: { error: "ERR_CONFLICT" } });
  });

  it("logging out on the phone makes the connection disconnected with the reason", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp sai", linked: true });
    expect(c.status).toBe("connected");
    await api.logoutFromPhone(c.user.token, t.url);
    const off = await statusBecomes(t, f.admin, c.id, "disconnected");
    expect(off.statusDetail).toMatch(/Logged out on the phone/);
  });

  it("events of a session this node does not run: one that ends it is reported, passing ones are left to the node that runs it", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp outro nó", linked: true });
    // The plugin here forgets the session (as after a restart, or when another node runs it)…
    await t.core.broker.call("v1.channel-wuzapi.disconnect", { tenantId: f.tenantId, connectionId: c.id });
    // …while the platform still shows it connected (that other node's report).
    await t.core.broker.call("connections.setStatus", { tenantId: f.tenantId, connectionId: c.id, status: "connected" });
    const qr = await api.post(c.user.token, { type: "QR", event: "code", qrCodeBase64: "data:image/png;base64,AAAA" }, { origin: t.url });
    expect(qr.body).toMatchObject({ result: "ignored" });
    const drop = await api.post(c.user.token, { type: "Disconnected", event: {} }, { origin: t.url });
    expect(drop.body).toMatchObject({ result: "ignored" });
    expect((await connectionOf(t, f.admin, c.id)).status).toBe("connected");
    const out = await api.post(c.user.token, { type: "LoggedOut", event: { OnConnect: false, Reason: 401 } }, { origin: t.url });
    expect(out.body).toMatchObject({ result: "status" });
    expect(await connectionOf(t, f.admin, c.id)).toMatchObject({ status: "disconnected", statusDetail: expect.stringMatching(/Logged out on the phone \(401\)/) });
  });

  it("reset logs the session out on wuzapi and starts again with a new QR code", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp reset", linked: true });
    const r = await t.api.post("/wuzapi/reset", { token: c.token }, f.admin);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("qrcode");
    expect(r.body.qrcode).toMatch(/^data:image\/png;base64,/);
    const u = api.user(c.user.token);
    expect(u.linked).toBe(false);
    expect(calls(c.user.token)).toContain("POST /session/logout");
    const view = await statusBecomes(t, f.admin, c.id, "qrcode");
    expect(view.qrcode).toBe(u.client!.qr);
    expect((await t.api.post("/wuzapi/reset", { token: c.token }, f.supervisor)).status).toBe(403);
    expect((await t.api.post("/wuzapi/reset", { token: c.token }, other.admin)).status).toBe(404);
  });

  it("disconnect stops the client but keeps the WhatsApp session: connecting again needs no QR code", async () => {
    const c = await connectWuzapi(t, f, api, { name: "WhatsApp pausa", linked: true });
    const off = await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin);
    expect(off.body.status).toBe("disconnected");
    expect(calls(c.user.token)).toContain("POST /session/disconnect");
    expect(api.user(c.user.token).linked).toBe(true);
    const on = await t.api.post(`/connections/${c.id}/connect`, {}, f.admin);
    expect(on.body.status).toBe("connected");
  });

  it("a user wuzapi does not know is created with the API token; without one the connection says so", async () => {
    const token = `tok-new-${Date.now()}`;
    const made = await createWuzapiConnection(t, f, api, {
      name: "WhatsApp novo usuário",
      user: { token } as never,
      settings: { sessionToken: token, apiToken: api.adminToken, session: "loja-centro" },
    });
    const on = await t.api.post(`/connections/${made.id}/connect`, {}, f.admin);
    expect(on.body.status).toBe("qrcode");
    const created = api.requests.find((r) => r.path === "/admin/users" && r.body.token === token)!;
    expect(created).toMatchObject({ authorization: api.adminToken, status: 200, body: { name: "loja-centro", token } });
    expect(api.user(token).webhook).toContain(`/api/wuzapi/${made.token}/webhook`);

    const unknown = `tok-unknown-${Date.now()}`;
    const bare = await createWuzapiConnection(t, f, api, { name: "WhatsApp sem usuário", user: { token: unknown } as never, settings: { sessionToken: unknown } });
    const res = await t.api.post(`/connections/${bare.id}/connect`, {}, f.admin);
    expect(res.body.status).toBe("disconnected");
    expect(res.body.statusDetail).toMatch(/does not know the session token/);
  });

  it("wuzapi out of reach shows timeout, and the connection comes back by itself when it answers again", async () => {
    const svc = pluginService(t);
    const saved = { healthMs: svc.settings.healthMs, retryMs: svc.settings.retryMs };
    svc.settings.healthMs = 150;
    svc.settings.retryMs = [150];
    try {
      const c = await connectWuzapi(t, f, api, { name: "WhatsApp queda", linked: true });
      expect(c.status).toBe("connected");
      await api.down();
      const down = await statusBecomes(t, f.admin, c.id, "timeout");
      expect(down.statusDetail).toMatch(/wuzapi unreachable/);
      await api.up();
      await statusBecomes(t, f.admin, c.id, "connected");
    } finally {
      Object.assign(svc.settings, saved);
      if (!(await fetch(api.url).then(() => true, () => false))) await api.up();
    }
  });

  it("the connection test reports what wuzapi says of the token", async () => {
    const u = api.addUser({ linked: true });
    const ok = await t.api.post("/connections/test", { type: "channel-wuzapi", settings: { apiUrl: api.url, sessionToken: u.token, hmacKey: HMAC_KEY, webhookFormat: "form" } }, f.admin);
    expect(ok.body).toMatchObject({ ok: true });
    const no = await t.api.post("/connections/test", { type: "channel-wuzapi", settings: { apiUrl: api.url, sessionToken: "tok-nobody-here", hmacKey: HMAC_KEY, webhookFormat: "json" } }, f.admin);
    expect(no.body).toMatchObject({ ok: false });
    expect(no.body.detail).toMatch(/does not know the session token/);
    const shortKey = await t.api.post("/connections/test", { type: "channel-wuzapi", settings: { apiUrl: api.url, sessionToken: u.token, hmacKey: "short", webhookFormat: "json" } }, f.admin);
    expect(shortKey).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION", data: { field: "settings.hmacKey" } } });
  });
});
