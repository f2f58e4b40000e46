/**
 * A 360dialog template with a media header (WHATSAPP.md §3): the sample goes through 360dialog's
 * relay of the Resumable Upload API (`POST <base>/uploads?…` → a session id, then
 * `POST <base>/upload:<id>` with the key and `file_offset: 0`) and the template, at
 * `/v1/configs/templates`, names the handle. Through the plugin's route as the screen calls it,
 * against a real core and the local 360dialog API.
 */
import { createTenant, startCore, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { Fake360 } from "./fake-360";
import { connect360, LOOPBACK_FAKES, type D360Connection } from "./helpers";

jest.setTimeout(120_000);

let fake: Fake360;
let t: TestCore;
let a: TenantFixture;
let ca: D360Connection;

const JPEG = Buffer.concat([Buffer.from("ffd8ffe000104a464946", "hex"), Buffer.alloc(400, 9)]);
const template = (name: string, format: string) => ({ name, language: "pt_BR", category: "MARKETING", header: { format }, body: { text: "Novidade para {{1}}.", example: ["Ana"] } });

async function post(who: Auth, connectionId: number, tpl: unknown, file?: { data: Buffer; type: string; name: string }): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append("template", JSON.stringify(tpl));
  if (file) form.append("file", new Blob([file.data], { type: file.type }), file.name);
  const res = await fetch(`${t.url}/api/channel-360/templates?connectionId=${connectionId}`, { method: "POST", headers: { authorization: `Bearer ${who.token}`, "x-session-id": who.sessionId, "x-locale": "es" }, body: form });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  fake = await Fake360.start();
  t = await startCore({ env: LOOPBACK_FAKES });
  a = await createTenant(t, { tier: "PLUS" });
  ca = await connect360(t, a, fake, { name: "360 mídia" });
  expect(ca.status).toBe("connected");
});
afterAll(async () => {
  await t?.stop();
  await fake?.close();
});

describe("360dialog templates with a media header's sample, real core", () => {
  it("uploads the sample through 360dialog's /uploads with the key and submits the template naming the handle", async () => {
    const r = await post(a.admin, ca.id, template("promo_foto", "IMAGE"), { data: JPEG, type: "image/jpeg", name: "promo.jpg" });
    expect(r).toMatchObject({ status: 201, body: { status: "PENDING" } });
    const created = fake.templates.get(ca.number.apiKey)!.find((x) => x.name === "promo_foto")!;
    const header = created.components.find((c) => c.type === "HEADER") as { example: { header_handle: string[] } };
    expect(header).toEqual({ type: "HEADER", format: "IMAGE", example: { header_handle: [expect.stringMatching(/^2:/)] } });
    const sample = fake.samples.get(header.example.header_handle[0])!;
    expect(sample).toMatchObject({ apiKey: ca.number.apiKey, fileName: "promo.jpg", fileType: "image/jpeg" });
    expect(sample.data.equals(JPEG)).toBe(true);
    // The key is the only credential: no Bearer to 360dialog, the session's id prefixed "upload:" on the second call.
    const calls = fake.calls.filter((c) => c.path === "/uploads" || c.path.startsWith("/upload:"));
    expect(calls.map((c) => [c.method, c.path.startsWith("/upload:") ? "/upload:<id>" : c.path, c.key === ca.number.apiKey, c.bearer])).toEqual([
      ["POST", "/uploads", true, false],
      ["POST", "/upload:<id>", true, false],
    ]);
  });

  it("refuses a missing sample and a wrong type with the plugin's codes (in the caller's language); nothing reaches 360dialog", async () => {
    const before = fake.calls.length;
    const none = await post(a.admin, ca.id, template("sin_archivo", "DOCUMENT"));
    expect(none).toMatchObject({ status: 400, body: { error: "ERR_D360_TEMPLATE_SAMPLE_REQUIRED", title: "Falta el archivo de ejemplo" } });
    const wrong = await post(a.admin, ca.id, template("tipo_malo", "DOCUMENT"), { data: JPEG, type: "image/jpeg", name: "a.jpg" });
    expect(wrong).toMatchObject({ status: 422, body: { error: "ERR_D360_TEMPLATE_SAMPLE_TYPE", data: { types: "application/pdf", got: "image/jpeg" } } });
    expect(fake.calls.length).toBe(before);
  });
});
