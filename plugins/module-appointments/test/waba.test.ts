/**
 * An appointment on an official WhatsApp (WABA) connection, against channel-waba and its local
 * Graph API: the template must be approved there with as many variables as the appointment
 * gives (checked when it is booked), and at its time the template goes out with its body
 * parameters, then the attachment (a PDF uploaded to the tenant's files) as a document, once.
 */
import { FakeGraph } from "../../channel-waba/test/fake-graph";
import { FakeTemplates } from "../../channel-waba/test/fake-graph-templates";
import { ALWAYS, Clock, MIN, expectError, ok, serviceOf, settle, slot, waitFor, type TestCore } from "./kit";
import { createTenant, startCore, uid, type TenantFixture } from "@openatende/core/testkit";

jest.setTimeout(240_000);

const clock = new Clock(Date.now());
let t: TestCore;
let graph: FakeGraph;
let f: TenantFixture;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await startCore({ clock, schedulerTickMs: 200, env: { NAMESPACE: `appt-waba-${uid()}`, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  f = await createTenant(t, { tier: "PREMIUM" });
});
afterAll(async () => {
  await t?.stop();
  await graph?.close();
});

it("books a WABA template appointment only with the template's variables, and sends the template then the attachment at its time, once", async () => {
  const n = graph.addNumber();
  new FakeTemplates(graph).add(n.wabaId, { name: "lembrete_consulta", components: [{ type: "BODY", text: "Olá {{1}}, sua consulta é {{2}}.", example: { body_text: [["Ana", "amanhã"]] } }] });
  const conn = await ok(t.api.post("/connections", { name: `Oficial ${uid()}`, type: "channel-waba", settings: { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url } }, f.admin), 201);
  await ok(t.api.post(`/connections/${conn.id}/connect`, {}, f.admin));
  const customer = `55117${String(Date.now()).slice(-8)}`;
  const { ticketId } = (await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: conn.id, providerMessageId: `wamid.${uid()}`, timestamp: Date.now(), from: { externalId: customer, name: "Ana Lima" }, body: "Quero marcar" })) as { ticketId: number };
  const contactId = (await ok(t.api.get(`/tickets/${ticketId}`, f.admin))).contactId as number;
  await ok(t.api.call("PUT", `/availability/${f.agent.userId}`, { days: ALWAYS }, f.admin));
  const service = await serviceOf(t, f, [f.agent.userId]);

  const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
  const attachment = await ok(t.api.post("/appointments/attachment", { file: { fileName: "preparo.pdf", mimeType: "application/pdf", data: pdf.toString("base64") } }, f.admin));
  // Not across midnight (São Paulo): a late-evening start moves to the next morning.
  const at = slot(clock, 2 * 60 * MIN);
  const base = { contactId, connectionId: conn.id, userId: f.agent.userId, serviceId: service.id, startAt: new Date(at).toISOString(), message: "Lembrete da sua consulta", attachment: { path: attachment.path, mimeType: attachment.mimeType, fileName: attachment.fileName } };
  expectError(await t.api.post("/appointments", { ...base, template: { name: "lembrete_consulta", language: "pt_BR", params: ["Ana"] } }, f.admin), 400, "ERR_APPOINTMENT_TEMPLATE_PARAMS");
  expectError(await t.api.post("/appointments", { ...base, template: { name: "nao_existe", language: "pt_BR", params: [] } }, f.admin), 400, "ERR_APPOINTMENT_TEMPLATE_NOT_FOUND");
  await ok(t.api.post("/appointments", { ...base, template: { name: "lembrete_consulta", language: "pt_BR", params: ["Ana", "hoje às 15h"] } }, f.admin), 201);

  clock.set(at - MIN);
  await settle();
  expect(graph.sentTo(n.pnid, customer)).toEqual([]);
  clock.set(at + 1000);
  const sent = await waitFor("the template and the document at Meta", async () => graph.sentTo(n.pnid, customer), (s) => s.length >= 2);
  expect(sent[0]).toMatchObject({ type: "template", template: { name: "lembrete_consulta", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }, { type: "text", text: "hoje às 15h" }] }] } });
  expect(sent[1]).toMatchObject({ type: "document" });
  const doc = sent[1]!.document as { id?: string; filename?: string };
  expect(doc.filename).toBe("preparo.pdf");
  expect(graph.uploads.get(doc.id!)!.data.equals(pdf)).toBe(true);
  await settle();
  expect(graph.sentTo(n.pnid, customer)).toHaveLength(2);
});
