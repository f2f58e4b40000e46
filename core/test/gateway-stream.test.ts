/**
 * Stream routes (`rest: { method, path, type: "stream" }`): the gateway leaves their body
 * unread and hands it to the action as ctx.stream, byte for byte, whatever its content type
 * (a webhook signed over its raw bytes); every other route's body is still parsed.
 */
import type { Context, ServiceSchema } from "moleculer";
import { startCore, TestCore } from "./helpers";

async function bytesOf(stream: AsyncIterable<unknown> | null | undefined): Promise<Buffer> {
  const parts: Buffer[] = [];
  if (stream) for await (const c of stream) parts.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(parts);
}

const probe: ServiceSchema = {
  name: "streamprobe",
  settings: { rest: "/" },
  actions: {
    raw: {
      rest: { method: "POST", path: "/streamprobe/:key/raw", type: "stream" } as never,
      access: "public",
      resource: "public",
      headers: ["content-type", "x-signature"],
      params: { key: { type: "string", min: 1 } },
      async handler(ctx: Context<{ key: string } & Record<string, unknown>, { headers?: Record<string, string> }>) {
        const body = await bytesOf((ctx as unknown as { stream?: AsyncIterable<unknown> }).stream);
        return { key: ctx.params.key, params: Object.keys(ctx.params).sort(), base64: body.toString("base64"), headers: ctx.meta.headers ?? {} };
      },
    },
    parsed: {
      rest: "POST /streamprobe/parsed",
      access: "public",
      params: { a: { type: "string" } },
      handler(ctx: Context<{ a: string }>) {
        return { a: ctx.params.a };
      },
    },
  },
};

describe("gateway stream routes", () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startCore({ services: [probe] });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const post = (path: string, body: Buffer | string, headers: Record<string, string>) => fetch(`${t.url}/api${path}`, { method: "POST", headers, body });

  it("hands a JSON body over unread: the same bytes, spacing and escapes included", async () => {
    const body = Buffer.from('{"b":1,  "a":"\\u003cé\\u0026>"}\n');
    const res = await post("/streamprobe/k1/raw", body, { "content-type": "application/json", "x-signature": "abc", "x-other": "not passed" });
    expect(res.status).toBe(200);
    const got = (await res.json()) as { key: string; params: string[]; base64: string; headers: Record<string, string> };
    expect(Buffer.from(got.base64, "base64").equals(body)).toBe(true);
    // The body is not merged into the params; only the route's own parameter is there.
    expect(got.params).toEqual(["key"]);
    expect(got.key).toBe("k1");
    expect(got.headers).toEqual({ "content-type": "application/json", "x-signature": "abc" });
  });

  it("hands a form body over unread (not parsed into fields), and an empty body as empty", async () => {
    const body = "jsonData=%7B%22type%22%3A%22Message%22%7D&token=x+y&token=z";
    const res = await post("/streamprobe/k2/raw", body, { "content-type": "application/x-www-form-urlencoded" });
    const got = (await res.json()) as { params: string[]; base64: string };
    expect(Buffer.from(got.base64, "base64").toString("utf8")).toBe(body);
    expect(got.params).toEqual(["key"]);
    const empty = await post("/streamprobe/k3/raw", "", { "content-type": "application/json" });
    expect(((await empty.json()) as { base64: string }).base64).toBe("");
  });

  it("still parses the body of ordinary routes", async () => {
    const res = await post("/streamprobe/parsed", JSON.stringify({ a: "parsed" }), { "content-type": "application/json" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: "parsed" });
    const form = await post("/streamprobe/parsed", "a=form+field", { "content-type": "application/x-www-form-urlencoded" });
    expect(await form.json()).toEqual({ a: "form field" });
  });
});
