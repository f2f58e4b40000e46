/**
 * Message templates against a real core (testkit: MariaDB, Redis, the plugin host) and the
 * local Graph API: the contract's templatesList (Meta's cursors), templateCreate (spec §5's
 * variables-match-examples checked first, naming the field), templateDelete, template sends
 * with their variables in Meta's components (idempotent, outside the 24-hour window too), and
 * Meta's review webhooks recorded and pushed live to the right tenant only (WHATSAPP.md §7.2 item 9).
 */
import { io as ioClient, type Socket } from "socket.io-client";
import { createTenant, startCore, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { TemplatesListResult } from "@openatende/plugin-sdk";
import { FakeGraph } from "./fake-graph";
import { FakeTemplates } from "./fake-graph-templates";
import { connectWaba, LOOPBACK_FAKES, newCustomer, waitFor, type WabaConnection } from "./helpers";

jest.setTimeout(120_000);

let graph: FakeGraph;
let fake: FakeTemplates;
let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let ca: WabaConnection;
let cb: WabaConnection;

const call = <T = any>(action: string, params: Record<string, unknown>): Promise<T> => t.core.broker.call(`v1.channel-waba.${action}`, params) as Promise<T>;
const refA = () => ({ tenantId: a.tenantId, connectionId: ca.id });
const failure = (p: Promise<unknown>) => p.then(
  (v) => {
    throw new Error(`expected a refusal, got ${JSON.stringify(v)}`);
  },
  (err: { type?: string; code?: number; data?: any }) => ({ type: err.type, code: err.code, data: err.data }),
);

async function socketOf(who: Auth): Promise<{ socket: Socket; events: Array<{ event: string; payload: any }> }> {
  const events: Array<{ event: string; payload: any }> = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: who.token, sessionId: who.sessionId }, reconnection: false, forceNew: true });
  socket.onAny((event, payload) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.on("ready", () => resolve());
    socket.on("connect_error", reject);
  });
  return { socket, events };
}

const NEW = {
  name: "pedido_enviado",
  language: "pt_BR",
  category: "UTILITY",
  header: { format: "TEXT", text: "Pedido {{1}}", example: ["#123"] },
  body: { text: "Olá {{1}}, seu pedido sai {{2}}.", example: ["Ana", "hoje"] },
  footer: { text: "Loja Teste" },
  buttons: [{ type: "URL", text: "Rastrear", url: "https://loja.test/r/{{1}}", example: ["https://loja.test/r/abc"] }],
};

beforeAll(async () => {
  graph = await FakeGraph.start();
  fake = new FakeTemplates(graph);
  t = await startCore({ env: LOOPBACK_FAKES });
  a = await createTenant(t, { tier: "PLUS" });
  b = await createTenant(t, { tier: "PLUS" });
  ca = await connectWaba(t, a, graph, { name: "WABA modelos A" });
  cb = await connectWaba(t, b, graph, { name: "WABA modelos B" });
  expect([ca.status, cb.status]).toEqual(["connected", "connected"]);
});
afterAll(async () => {
  await t?.stop();
  await graph?.close();
});

describe("WABA templates, real core", () => {
  it("templatesList pages with Meta's cursor until next is null, and filters by status", async () => {
    const names = ["boas_vindas", "cobranca", "lembrete", "pesquisa", "promo_natal"];
    names.forEach((name, i) => fake.add(ca.number.wabaId, { name, status: i === 4 ? "REJECTED" : "APPROVED", ...(i === 4 ? { rejected_reason: "PROMOTIONAL" } : {}) }));
    fake.add(cb.number.wabaId, { name: "outra_empresa" });
    const seen: string[] = [];
    const pages: number[] = [];
    let after: string | undefined;
    do {
      const page: TemplatesListResult = await call("templatesList", { ...refA(), limit: 2, ...(after ? { after } : {}) });
      pages.push(page.templates.length);
      seen.push(...page.templates.map((x) => x.name));
      after = page.next ?? undefined;
    } while (after);
    expect(pages).toEqual([2, 2, 1]);
    expect(seen).toEqual(names);
    const rejected: TemplatesListResult = await call("templatesList", { ...refA(), status: "REJECTED" });
    expect(rejected).toEqual({ templates: [expect.objectContaining({ name: "promo_natal", status: "REJECTED", rejectedReason: "PROMOTIONAL", body: { text: "Olá, promo_natal" } })], next: null });
    expect(await failure(call("templatesList", { ...refA(), status: "ALMOST" }))).toMatchObject({ type: "VALIDATION_ERROR", code: 422 });
  });

  it("templateCreate sends a well-formed template to Meta (PENDING) and refuses one whose variables lack examples, naming the field", async () => {
    const created = await call("templateCreate", { ...refA(), template: NEW });
    expect(created).toEqual({ id: expect.stringMatching(/^\d+$/), status: "PENDING" });
    const posted = fake.calls.filter((c) => c.method === "POST").at(-1)!;
    expect(posted).toMatchObject({ wabaId: ca.number.wabaId, body: { name: "pedido_enviado", language: "pt_BR", category: "UTILITY" } });
    expect((posted.body as { components: unknown[] }).components).toContainEqual({ type: "BODY", text: NEW.body.text, example: { body_text: [["Ana", "hoje"]] } });

    const posts = fake.calls.filter((c) => c.method === "POST").length;
    const bad = await failure(call("templateCreate", { ...refA(), template: { ...NEW, name: "sem_exemplo", body: { text: "Olá {{1}}, tudo {{2}}?", example: ["Ana"] } } }));
    expect(bad).toMatchObject({ type: "ERR_WABA_TEMPLATE_INVALID", code: 400, data: { field: "template.body.text.example", reason: expect.stringContaining("2 variable(s)") } });
    const gap = await failure(call("templateCreate", { ...refA(), template: { ...NEW, name: "com_buraco", body: { text: "Olá {{1}} e {{3}}!", example: ["a", "b"] } } }));
    expect(gap).toMatchObject({ type: "ERR_WABA_TEMPLATE_INVALID", data: { field: "template.body.text" } });
    expect(await failure(call("templateCreate", { ...refA(), template: { ...NEW, name: "Com Maiúsculas" } }))).toMatchObject({ type: "VALIDATION_ERROR", data: [expect.objectContaining({ field: "template.name" })] });
    // Nothing that failed the checks reached Meta.
    expect(fake.calls.filter((c) => c.method === "POST").length).toBe(posts);
    // Meta's own refusal (the name exists in that language) is the catalogue's code with Meta's words.
    expect(await failure(call("templateCreate", { ...refA(), template: NEW }))).toMatchObject({ type: "ERR_WABA_TEMPLATE_REFUSED", code: 422, data: { code: 100 } });
  });

  it("templateDelete removes a name (or one language's id) and answers 404 for a name the account lacks", async () => {
    const en = fake.add(ca.number.wabaId, { name: "apagar_me", language: "en_US" });
    fake.add(ca.number.wabaId, { name: "apagar_me", language: "pt_BR" });
    expect(await call("templateDelete", { ...refA(), name: "apagar_me", id: en.id })).toEqual({ deleted: true });
    expect(fake.templates.filter((x) => x.name === "apagar_me").map((x) => x.language)).toEqual(["pt_BR"]);
    expect(await call("templateDelete", { ...refA(), name: "apagar_me" })).toEqual({ deleted: true });
    expect(fake.templates.some((x) => x.name === "apagar_me")).toBe(false);
    expect(await failure(call("templateDelete", { ...refA(), name: "apagar_me" }))).toMatchObject({ type: "ERR_WABA_TEMPLATE_NOT_FOUND", code: 404, data: { name: "apagar_me" } });
    // The other tenant's template of the same kind of name is not this account's.
    expect(await failure(call("templateDelete", { ...refA(), name: "outra_empresa" }))).toMatchObject({ type: "ERR_WABA_TEMPLATE_NOT_FOUND" });
  });

  it("a template send carries its variables in Meta's components, goes out once per message id, and passes a closed window", async () => {
    const who = newCustomer("Modelo");
    graph.windowClosed.add(who.waId);
    fake.add(ca.number.wabaId, { name: "rastreio", components: [{ type: "HEADER", format: "TEXT", text: "Pedido {{1}}" }, { type: "BODY", text: "Olá {{1}}, chega {{2}}." }, { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Ok" }, { type: "URL", text: "Ver", url: "https://loja.test/r/{{1}}" }] }] });
    const message = { kind: "template", name: "rastreio", language: "pt_BR", components: { header: { text: ["#77"] }, body: ["Bia", "amanhã"], buttons: [{ index: 1, value: "abc77" }] } };
    const send = () => call("send", { ...refA(), to: { externalId: who.waId }, message, messageId: 424242 });
    const first = await send();
    const again = await send();
    expect(again).toEqual(first);
    const out = graph.sentTo(ca.number.pnid, who.waId);
    expect(out).toEqual([
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: who.waId,
        type: "template",
        template: {
          name: "rastreio",
          language: { code: "pt_BR" },
          components: [
            { type: "header", parameters: [{ type: "text", text: "#77" }] },
            { type: "body", parameters: [{ type: "text", text: "Bia" }, { type: "text", text: "amanhã" }] },
            { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "abc77" }] },
          ],
        },
      },
    ]);
    // Free text to the same customer is still Meta's 131047.
    expect(await failure(call("send", { ...refA(), to: { externalId: who.waId }, message: { kind: "text", body: "oi" }, messageId: 424243 }))).toMatchObject({ type: "ERR_WABA_TEMPLATE_REQUIRED" });
    const bad = await failure(call("send", { ...refA(), to: { externalId: who.waId }, message: { ...message, components: { body: ["Bia", ""] } }, messageId: 424244 }));
    expect(bad).toMatchObject({ type: "ERR_WABA_TEMPLATE_INVALID", code: 400, data: { field: "message.components.body.1" } });
  });

  it("Meta's review webhooks are checked, recorded for the connection and pushed to its tenant's screens only", async () => {
    const tpl = fake.templates.find((x) => x.name === "pedido_enviado")!;
    const watchA = await socketOf(a.admin);
    const watchB = await socketOf(b.admin);
    try {
      expect((await fake.statusWebhook(ca.webhook, `${ca.appSecret}x`, tpl, "APPROVED")).status).toBe(401);
      expect((await call<{ statuses: unknown[] }>("templateStatuses", refA())).statuses).toEqual([]);

      const ok = await fake.statusWebhook(ca.webhook, ca.appSecret, tpl, "APPROVED");
      expect(ok).toMatchObject({ status: 200, body: { ok: true, accepted: 1, ignored: 0 } });
      expect((await call("templateStatuses", refA())).statuses).toEqual([{ id: tpl.id, name: "pedido_enviado", language: "pt_BR", status: "APPROVED", reason: null, at: expect.any(Number) }]);

      await fake.statusWebhook(ca.webhook, ca.appSecret, tpl, "REJECTED", { reason: "INVALID_FORMAT", rejection_info: { reason: "Exemplo não corresponde", recommendation: "Revise as variáveis" } });
      const pushed = await waitFor("the REJECTED push", async () => watchA.events.filter((e) => e.event === "plugin:channel-waba:template.status" && e.payload?.status === "REJECTED"));
      expect(pushed[0].payload).toMatchObject({ connectionId: ca.id, id: tpl.id, name: "pedido_enviado", reason: "INVALID_FORMAT — Exemplo não corresponde — Revise as variáveis" });
      expect((await call("templateStatuses", refA())).statuses).toEqual([expect.objectContaining({ id: tpl.id, status: "REJECTED" })]);

      // A change naming another business account, even signed with this app's secret, is dropped.
      const other = fake.add(cb.number.wabaId, { name: "de_outro" });
      expect((await fake.statusWebhook(ca.webhook, ca.appSecret, other, "PAUSED")).body).toMatchObject({ accepted: 0, ignored: 1 });
      await fake.statusWebhook(ca.webhook, ca.appSecret, tpl, "PAUSED");
      await waitFor("the PAUSED push", async () => watchA.events.some((e) => e.payload?.status === "PAUSED"));
      expect(watchA.events.filter((e) => e.event === "plugin:channel-waba:template.status").map((e) => e.payload.status)).toEqual(["APPROVED", "REJECTED", "PAUSED"]);
      expect(watchB.events.filter((e) => e.event.startsWith("plugin:channel-waba"))).toEqual([]);
      expect((await call("templateStatuses", { tenantId: b.tenantId, connectionId: cb.id })).statuses).toEqual([]);
      // Another number of the same business account shares its templates, and so their statuses.
      const sibling = graph.addNumber();
      sibling.wabaId = ca.number.wabaId;
      const cs = await connectWaba(t, a, graph, { name: "WABA modelos A2", number: sibling });
      expect((await call("templateStatuses", { tenantId: a.tenantId, connectionId: cs.id })).statuses).toEqual([expect.objectContaining({ id: tpl.id, status: "PAUSED" })]);
    } finally {
      watchA.socket.close();
      watchB.socket.close();
    }
  });

  it("another tenant's connection is not found for every template action", async () => {
    const asB = { tenantId: b.tenantId, connectionId: ca.id };
    for (const [action, extra] of [
      ["templatesList", {}],
      ["templateCreate", { template: { ...NEW, name: "intruso" } }],
      ["templateDelete", { name: "pedido_enviado" }],
      ["templateStatuses", {}],
    ] as Array<[string, Record<string, unknown>]>) {
      expect({ action, ...(await failure(call(action, { ...asB, ...extra }))) }).toMatchObject({ action, type: "ERR_CONNECTION_NOT_FOUND", code: 404 });
    }
    expect(fake.templates.some((x) => x.name === "intruso")).toBe(false);
    expect(fake.templates.some((x) => x.name === "pedido_enviado")).toBe(true);
    // Its own tenant deletes it: Meta's copy and the recorded review status go.
    expect((await call("templateStatuses", refA())).statuses).toEqual([expect.objectContaining({ name: "pedido_enviado" })]);
    expect(await call("templateDelete", { ...refA(), name: "pedido_enviado" })).toEqual({ deleted: true });
    expect((await call("templateStatuses", refA())).statuses).toEqual([]);
  });
});
