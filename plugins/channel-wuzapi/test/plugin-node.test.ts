/**
 * channel-wuzapi in a plugin node of its own (PLUGINS_EXTERNAL, over NATS): the webhook's body
 * crosses from the gateway to the plugin as a stream, so a delivery larger than a NATS packet
 * (1 MB) arrives whole and its signature is still checked on the exact bytes; sends go the
 * other way.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { startCore, createTenant, startPluginNode, transporterForPluginNodes, TestCore, TenantFixture, PluginNode, uid } from "@openatende/core/testkit";
import { FakeWuzapi } from "./fake-wuzapi";
import { connectWuzapi, LOOPBACK_FAKES, messagesOf, ticketWithMessages, waitFor, WuzapiConnection } from "./helpers";

const SERVICE = "v1.channel-wuzapi";

describe("channel-wuzapi in its own process over NATS", () => {
  const namespace = `wuzapi-node-${uid()}`;
  const pluginDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-wuzapi-node-"));
  let api: FakeWuzapi;
  let t: TestCore;
  let f: TenantFixture;
  let node: PluginNode | undefined;
  let c: WuzapiConnection;

  beforeAll(async () => {
    api = await FakeWuzapi.start();
    t = await startCore({ env: { NAMESPACE: namespace, PLUGINS_EXTERNAL: "channel-wuzapi", TRANSPORTER: "nats://127.0.0.1:4222", LOG_LEVEL: "error", ...LOOPBACK_FAKES } });
    node = startPluginNode(["channel-wuzapi"], {
      TRANSPORTER: transporterForPluginNodes(t.config, t.core.broker),
      NAMESPACE: namespace,
      REDIS_URL: t.config.redisUrl,
      DATA_DIR: pluginDataDir,
      PUBLIC_URL: t.config.publicUrl,
      JWT_SECRET: t.config.jwtSecret,
      DATABASE_URL: "",
      // The node's own reading of the platform's allow-list (the core's spawned nodes are given it).
      ...LOOPBACK_FAKES,
    });
    await node.ready;
    await waitFor("the plugin's service on the core's broker", async () => t.core.broker.registry.hasService(SERVICE, undefined as never), 30_000);
    // The gateway learns the plugin node's routes a moment after its service appears.
    await waitFor("the webhook route", async () => {
      const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ fullPath: string }>;
      return aliases.some((a) => a.fullPath.includes("/wuzapi/:token/webhook"));
    });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectWuzapi(t, f, api, { name: "WhatsApp nó próprio", linked: true });
  }, 120_000);

  afterAll(async () => {
    await node?.kill("SIGTERM");
    await t?.stop();
    await api?.close();
    fs.rmSync(pluginDataDir, { recursive: true, force: true });
  });

  it("runs in the plugin node, not in the core's process", () => {
    expect(c.status).toBe("connected");
    expect(t.core.broker.getLocalService({ name: "channel-wuzapi", version: 1 })).toBeFalsy();
  });

  it("a signed delivery of 2 MB (a 1.5 MB file) crosses whole; a wrong signature is still refused", async () => {
    const who = { jid: `5541${Math.floor(900_000_000 + Math.random() * 99_999_999)}@s.whatsapp.net`, name: `Eva ${uid()}` };
    const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(1_500_000)]);
    const spec = { chat: who.jid, pushName: who.name, message: { documentMessage: { mimetype: "application/pdf", fileName: "catalogo.pdf" } }, extra: { base64: pdf.toString("base64"), mimeType: "application/pdf", fileName: "X.pdf" } };
    const wrong = await api.message(c.user.token, spec, { origin: t.url, signature: "wrong" });
    expect(wrong.status).toBe(401);
    const ok = await api.message(c.user.token, spec, { origin: t.url, format: "form" });
    expect(ok).toMatchObject({ status: 200, body: { result: "stored" } });
    const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect(messages[0]).toMatchObject({ mediaType: "document", media: { fileName: "catalogo.pdf", size: pdf.length } });
    const res = await fetch(`${t.url}${messages[0].media!.url}`, { headers: { authorization: `Bearer ${f.agent.token}`, "x-session-id": f.agent.sessionId } });
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);

    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    const sent = await t.api.post(`/messages/${ticket.id}`, { body: "Recebido, obrigado!" }, f.agent);
    expect(sent.body).toMatchObject({ status: "sent" });
    expect(api.sends(c.user.token, "/chat/send/text").map((r) => r.body.Body)).toEqual(["Recebido, obrigado!"]);
    expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(2);
  });
});
