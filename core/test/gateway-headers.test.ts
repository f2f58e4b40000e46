/**
 * An action's `headers` option: the gateway hands it those request headers (a webhook's
 * signature) in `ctx.meta.headers`, and no others.
 */
import type { Context } from "moleculer";
import { startCore, TestCore } from "./helpers";

describe("gateway: request headers an action asks for", () => {
  let t: TestCore;

  beforeAll(async () => {
    t = await startCore({
      services: [
        {
          name: "headerprobe",
          settings: { rest: "/" },
          actions: {
            signed: {
              rest: "POST /header-probe/signed",
              access: "public",
              headers: ["X-Probe-Signature", "x-probe-missing"],
              handler: (ctx: Context<unknown, { headers?: Record<string, string> }>) => ({ headers: ctx.meta.headers ?? null }),
            },
            plain: {
              rest: "POST /header-probe/plain",
              access: "public",
              handler: (ctx: Context<unknown, { headers?: Record<string, string> }>) => ({ headers: ctx.meta.headers ?? null }),
            },
          },
        },
      ],
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("passes the declared headers (lower-case names) and nothing else", async () => {
    const h = { "x-probe-signature": "abc123", authorization: "Bearer nope", cookie: "a=b" };
    const signed = await t.api.post("/header-probe/signed", {}, null, h);
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual({ headers: { "x-probe-signature": "abc123" } });
    const plain = await t.api.post("/header-probe/plain", {}, null, h);
    expect(plain.body).toEqual({ headers: null });
  });
});
