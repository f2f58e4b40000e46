/**
 * A template with a media header (IMAGE, VIDEO, DOCUMENT) through the plugin's route
 * `POST /api/channel-waba/templates?connectionId=` (multipart: template JSON + its sample file),
 * against a real core and the local Graph API's Resumable Upload API: the sample goes up (a
 * session, then the bytes with `OAuth <token>` and `file_offset: 0`) and the template names its
 * handle; a file Meta would refuse (type, bytes, size), a missing sample, a failed upload,
 * another tenant's connection and a non-admin are refused with the catalogue's codes, and none
 * of them leaves a template at Meta.
 */
import { createTenant, startCore, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeGraph } from "./fake-graph";
import { FakeTemplates } from "./fake-graph-templates";
import { connectWaba, LOOPBACK_FAKES, type WabaConnection } from "./helpers";

jest.setTimeout(120_000);

let graph: FakeGraph;
let fake: FakeTemplates;
let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let ca: WabaConnection;

const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(200, 7)]);
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(300, 32)]);
const MP4 = Buffer.concat([Buffer.from("00000018667479706d703432", "hex"), Buffer.alloc(500, 1)]);

const template = (name: string, format: string) => ({
  name,
  language: "pt_BR",
  category: "MARKETING",
  header: { format },
  body: { text: "Olá {{1}}, veja a novidade.", example: ["Ana"] },
});

/** The plugin's route as the screen calls it: a form with the template's JSON and the file. */
async function post(who: Auth, connectionId: number, tpl: unknown, file?: { data: Buffer; type: string; name: string }): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append("template", JSON.stringify(tpl));
  if (file) form.append("file", new Blob([file.data], { type: file.type }), file.name);
  const res = await fetch(`${t.url}/api/channel-waba/templates?connectionId=${connectionId}`, { method: "POST", headers: { authorization: `Bearer ${who.token}`, "x-session-id": who.sessionId, "x-locale": "en" }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const posted = () => fake.calls.filter((c) => c.method === "POST").length;

beforeAll(async () => {
  graph = await FakeGraph.start();
  fake = new FakeTemplates(graph);
  t = await startCore({ env: LOOPBACK_FAKES });
  a = await createTenant(t, { tier: "PLUS" });
  b = await createTenant(t, { tier: "PLUS" });
  ca = await connectWaba(t, a, graph, { name: "WABA mídia" });
  expect(ca.status).toBe("connected");
});
afterAll(async () => {
  await t?.stop();
  await graph?.close();
});

describe("WABA templates with a media header's sample, real core", () => {
  it("uploads the sample through the Resumable Upload API and submits the template naming its handle", async () => {
    const r = await post(a.admin, ca.id, template("oferta_imagem", "IMAGE"), { data: PNG, type: "image/png", name: "oferta.png" });
    expect(r).toMatchObject({ status: 201, body: { id: expect.stringMatching(/^\d+$/), status: "PENDING" } });
    const created = fake.templates.find((x) => x.name === "oferta_imagem")!;
    const header = created.components.find((c) => c.type === "HEADER") as { format: string; example: { header_handle: string[] } };
    expect(header).toEqual({ type: "HEADER", format: "IMAGE", example: { header_handle: [expect.stringMatching(/^4::/)] } });
    const sample = fake.uploads.samples.get(header.example.header_handle[0])!;
    // The very bytes, uploaded through the connection's app with its token.
    expect(sample).toMatchObject({ appId: "123456789012345", token: ca.number.token, fileName: "oferta.png", fileType: "image/png" });
    expect(sample.data.equals(PNG)).toBe(true);
    expect(fake.uploads.calls.slice(-2)).toEqual([
      { step: "start", refused: null },
      { step: "bytes", refused: null },
    ]);

    // A video and a document the same way.
    expect((await post(a.admin, ca.id, template("oferta_video", "VIDEO"), { data: MP4, type: "video/mp4", name: "v.mp4" })).status).toBe(201);
    expect((await post(a.admin, ca.id, template("boleto_pdf", "DOCUMENT"), { data: PDF, type: "application/pdf", name: "boleto.pdf" })).status).toBe(201);
    expect(fake.templates.filter((x) => ["oferta_video", "boleto_pdf"].includes(x.name)).map((x) => x.status)).toEqual(["PENDING", "PENDING"]);
  });

  it("refuses a missing sample, a file of another type (or whose bytes are not its type) and one over Meta's size, before anything is uploaded", async () => {
    const before = { posts: posted(), uploads: fake.uploads.calls.length };
    // The contract's JSON action: a media header with no sample handle.
    await expect(t.core.broker.call("v1.channel-waba.templateCreate", { tenantId: a.tenantId, connectionId: ca.id, template: template("sem_amostra", "IMAGE") })).rejects.toMatchObject({
      type: "ERR_WABA_TEMPLATE_SAMPLE_REQUIRED",
      code: 400,
      data: { field: "template.header.example", format: "IMAGE" },
    });
    const none = await post(a.admin, ca.id, template("sem_arquivo", "VIDEO"));
    expect(none).toMatchObject({ status: 400, body: { error: "ERR_WABA_TEMPLATE_SAMPLE_REQUIRED", message: expect.stringContaining("VIDEO") } });

    const gif = await post(a.admin, ca.id, template("tipo_errado", "IMAGE"), { data: Buffer.from("GIF89a..........."), type: "image/gif", name: "a.gif" });
    expect(gif).toMatchObject({ status: 422, body: { error: "ERR_WABA_TEMPLATE_SAMPLE_TYPE", data: { format: "IMAGE", types: "image/jpeg, image/png", got: "image/gif" } } });
    // A PDF renamed as a PNG: its bytes say otherwise.
    expect((await post(a.admin, ca.id, template("disfarcado", "IMAGE"), { data: PDF, type: "image/png", name: "x.png" })).body).toMatchObject({ error: "ERR_WABA_TEMPLATE_SAMPLE_TYPE" });
    // A document header takes no image.
    expect((await post(a.admin, ca.id, template("doc_imagem", "DOCUMENT"), { data: PNG, type: "image/png", name: "a.png" })).status).toBe(422);

    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const large = await post(a.admin, ca.id, template("grande_demais", "IMAGE"), { data: big, type: "image/png", name: "big.png" });
    expect(large).toMatchObject({ status: 413, body: { error: "ERR_WABA_TEMPLATE_SAMPLE_TOO_LARGE", data: { format: "IMAGE", maxMb: 5 }, message: expect.stringContaining("5 MB") } });
    // The same size is a video's right (16 MB).
    expect((await post(a.admin, ca.id, template("video_grande", "VIDEO"), { data: Buffer.concat([MP4, Buffer.alloc(5 * 1024 * 1024)]), type: "video/mp4", name: "v.mp4" })).status).toBe(201);

    expect(posted()).toBe(before.posts + 1);
    expect(fake.uploads.calls.length).toBe(before.uploads + 2);
    expect(fake.templates.map((x) => x.name)).not.toEqual(expect.arrayContaining(["sem_amostra", "sem_arquivo", "tipo_errado", "disfarcado", "doc_imagem", "grande_demais"]));
  });

  it("a failed upload creates no template: Meta's refusal is a file failure, an expired token asks for new credentials", async () => {
    const before = posted();
    fake.uploads.failNext("start", { httpStatus: 400, code: 100, message: "Invalid parameter" });
    const refused = await post(a.admin, ca.id, template("upload_falhou", "IMAGE"), { data: PNG, type: "image/png", name: "a.png" });
    expect(refused).toMatchObject({ status: 422, body: { error: "ERR_WABA_MEDIA_FAILED", data: { code: 100 } } });
    // Refused at the bytes step: the session opened, the file did not go.
    fake.uploads.failNext("bytes", { httpStatus: 401, code: 190, subcode: 463, message: "Error validating access token" });
    const expired = await post(a.admin, ca.id, template("token_vencido", "IMAGE"), { data: PNG, type: "image/png", name: "a.png" });
    expect(expired).toMatchObject({ status: 403, body: { error: "ERR_WABA_CREDENTIALS_REQUIRED" } });
    expect(fake.uploads.calls.slice(-3)).toEqual([
      { step: "start", refused: "injected" },
      { step: "start", refused: null },
      { step: "bytes", refused: "injected" },
    ]);
    expect(posted()).toBe(before);
    expect(fake.templates.some((x) => ["upload_falhou", "token_vencido"].includes(x.name))).toBe(false);
  });

  it("another tenant's connection is not found and an agent may not create; nothing is uploaded for either", async () => {
    const uploads = fake.uploads.calls.length;
    const other = await post(b.admin, ca.id, template("intruso_midia", "IMAGE"), { data: PNG, type: "image/png", name: "a.png" });
    expect(other).toMatchObject({ status: 404, body: { error: "ERR_CONNECTION_NOT_FOUND" } });
    const agent = await post(a.agent, ca.id, template("agente_midia", "IMAGE"), { data: PNG, type: "image/png", name: "a.png" });
    expect(agent).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    expect(fake.uploads.calls.length).toBe(uploads);
    expect(fake.templates.some((x) => x.name.endsWith("_midia"))).toBe(false);
  });

  it("the template's JSON is checked like templateCreate's: a bad name or a body without its examples goes nowhere", async () => {
    const uploads = fake.uploads.calls.length;
    const badName = await post(a.admin, ca.id, { ...template("x", "IMAGE"), name: "Com Maiúsculas" }, { data: PNG, type: "image/png", name: "a.png" });
    expect(badName).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION", data: { field: "template.name" } } });
    const noExample = await post(a.admin, ca.id, { ...template("sem_exemplo_midia", "IMAGE"), body: { text: "Olá {{1}}!" } }, { data: PNG, type: "image/png", name: "a.png" });
    expect(noExample).toMatchObject({ status: 400, body: { error: "ERR_WABA_TEMPLATE_INVALID", data: { field: "template.body.text.example" } } });
    const notTemplate = await post(a.admin, ca.id, "a text, not a template", { data: PNG, type: "image/png", name: "a.png" });
    expect(notTemplate).toMatchObject({ status: 400, body: { error: "ERR_WABA_TEMPLATE_INVALID", data: { field: "template" } } });
    expect(fake.uploads.calls.length).toBe(uploads);
  });
});
