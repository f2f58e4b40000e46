/**
 * The flow engine's outbound parts against local servers: a webhook node posts the fields it
 * chose (and the admin's headers) to a local HTTP server and follows "success", or "error" on a
 * failing answer or a redirect to an address the outbound URL policy refuses (the flows store
 * refuses such an address on save; the engine's call checks every hop again), recorded as the
 * step's error;
 * a transfer to a queue with "balance" gives the ticket to the queue's online user with the
 * fewest open tickets (offline users never).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { FlowRun } from "../src/model";
import { botTenant, chatFlowOn, Customer, edge, endedRuns, engineCore, logsOf, node, ok, start, waitStatus, type BotTenant, type TestCore } from "./engine-kit";

jest.setTimeout(180_000);

interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let t: TestCore;
let f: BotTenant;
let server: http.Server;
let base = "";
const hits: Hit[] = [];
let answer = 200;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      hits.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url?.startsWith("/moved")) {
        res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data" });
        res.end();
        return;
      }
      res.writeHead(answer, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: answer < 300 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await engineCore();
  f = await botTenant(t);
});
afterAll(async () => {
  await t?.stop();
  await new Promise((r) => server.close(r));
});

const webhookFlow = (url: string, method: "POST" | "PUT" | "GET" = "POST") =>
  chatFlowOn(
    t,
    f,
    [
      start(),
      node("hook", { type: "webhook", name: "CRM", url, method, fields: ["name", "protocol", "phoneNumber", "email", "greeting", "user"], headers: { "X-Token": "segredo-123" } }),
      node("ok", { type: "end", name: "Ok", message: "Recebemos seus dados, {{name}}.", close: true }),
      node("fail", { type: "end", name: "Falha", message: "Não conseguimos registrar agora.", close: true }),
    ],
    [edge("start", "hook"), edge("hook", "ok", "success"), edge("hook", "fail", "error")],
  );

async function lastRun(flowId: number, ticketId: number): Promise<FlowRun> {
  return (await endedRuns(t, f.admin, flowId, ticketId)).find((r) => r.ticketId === ticketId)!;
}

describe("webhook nodes (MariaDB, a local HTTP server)", () => {
  it("posts the chosen fields as JSON with the node's headers, and follows success", async () => {
    answer = 200;
    hits.length = 0;
    const flow = await webhookFlow(`${base}/crm/leads?src=bot`);
    const c = new Customer(t, f, "Lia Moura");
    await c.say("Oi");
    await waitStatus(c, "closed");
    expect(await c.sent()).toEqual(["Recebemos seus dados, Lia."]);
    expect(hits).toHaveLength(1);
    const hit = hits[0];
    expect({ method: hit.method, url: hit.url, type: hit.headers["content-type"], token: hit.headers["x-token"] }).toEqual({ method: "POST", url: "/crm/leads?src=bot", type: "application/json", token: "segredo-123" });
    const protocol = (await t.core.broker.call("tickets.getInternal", { tenantId: f.tenantId, id: c.ticketId }) as { protocol: string }).protocol;
    const body = JSON.parse(hit.body);
    expect(body).toEqual({ ticketId: c.ticketId, flowId: flow.id, name: "Lia Moura", protocol, phoneNumber: null, email: null, greeting: expect.stringMatching(/^(Bom dia|Boa tarde|Boa noite)$/), user: null });
    expect((await lastRun(flow.id, c.ticketId)).steps.find((s) => s.nodeId === "hook")).toMatchObject({ state: "success", detail: "HTTP 200" });
  });

  it("a GET sends the fields as the query", async () => {
    answer = 204;
    hits.length = 0;
    await webhookFlow(`${base}/consulta`, "GET");
    const c = new Customer(t, f, "Mara Luz");
    await c.say("Oi");
    await waitStatus(c, "closed");
    expect(await c.sent()).toEqual(["Recebemos seus dados, Mara."]);
    const u = new URL(hits[0].url, base);
    expect({ method: hits[0].method, path: u.pathname, name: u.searchParams.get("name"), ticketId: u.searchParams.get("ticketId"), body: hits[0].body }).toEqual({ method: "GET", path: "/consulta", name: "Mara Luz", ticketId: String(c.ticketId), body: "" });
  });

  it("an error answer follows the error handle, recorded as the step's error", async () => {
    answer = 500;
    hits.length = 0;
    const flow = await webhookFlow(`${base}/crm/leads`, "PUT");
    const c = new Customer(t, f, "Nina Reis");
    await c.say("Oi");
    await waitStatus(c, "closed");
    expect(await c.sent()).toEqual(["Não conseguimos registrar agora."]);
    expect(hits.map((h) => h.method)).toEqual(["PUT"]);
    expect((await lastRun(flow.id, c.ticketId)).steps.map((s) => [s.nodeId, s.state, s.detail])).toEqual([
      ["start", "success", null],
      ["hook", "error", "HTTP 500"],
      ["fail", "success", "closed"],
    ]);
  });

  it("a redirect to an address the outbound URL policy refuses is not followed: the error handle, the policy's code in the step", async () => {
    answer = 200;
    hits.length = 0;
    const flow = await webhookFlow(`${base}/moved`);
    const c = new Customer(t, f, "Otto Sá");
    await c.say("Oi");
    await waitStatus(c, "closed");
    expect(await c.sent()).toEqual(["Não conseguimos registrar agora."]);
    expect(hits.map((h) => h.url)).toEqual(["/moved"]);
    const step = (await lastRun(flow.id, c.ticketId)).steps.find((s) => s.nodeId === "hook");
    expect(step?.state).toBe("error");
    expect(step?.detail).toMatch(/^ERR_URL_NOT_ALLOWED/);
  });
});

describe("hand-off distribution (MariaDB)", () => {
  it("balance: the queue's online user with the fewest open tickets (ties: the first), never an offline one", async () => {
    const queue = f.queueIds[0]; // admin, supervisor and agent; all logged in, so online
    expect((await t.api.put(`/users/${f.admin.userId}/status`, { status: "offline" }, f.admin)).status).toBe(200);
    // The supervisor already has an open ticket.
    const contact = await ok(t.api.post("/contacts", { name: "Cliente Antigo", number: "5511900000001" }, f.admin), 201);
    const own = await ok(t.api.post("/tickets", { contactId: contact.id, connectionId: f.conn, queueId: queue }, f.supervisor), 201);
    expect((await t.api.get(`/tickets/${own.id}`, f.supervisor)).body).toMatchObject({ status: "open", userId: f.supervisor.userId });

    await chatFlowOn(
      t,
      f,
      [start(), node("go", { type: "transfer", name: "Atendimento", queueId: queue, userId: null, message: "Um atendente já vai falar com você." })],
      [edge("start", "go")],
      { distribute: "balance" },
    );
    const got: number[] = [];
    for (const name of ["Pedro Alves", "Quésia Lopes", "Rafa Gomes"]) {
      const c = new Customer(t, f, name);
      await c.say("Oi");
      const tk = await waitStatus(c, "open");
      got.push(tk.userId!);
      const define = (await logsOf(t, f.tenantId, c.ticketId)).find((l) => l.type === "userDefine");
      expect(define).toMatchObject({ userId: tk.userId, data: { distribute: "balance", reason: "flow" } });
    }
    // agent 0 open → agent; agent 1 and supervisor 1 → the first of them (supervisor, made first); then agent again.
    expect(got).toEqual([f.agent.userId, f.supervisor.userId, f.agent.userId]);
  });
});
