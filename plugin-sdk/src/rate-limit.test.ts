import { rateLimit, RateLimitedError, CORE_RATE_LIMIT_ACTION } from "./rate-limit";

describe("rateLimit", () => {
  const rules = [{ key: "session:ip:1.2.3.4", max: 2, windowSeconds: 60 }];

  it("asks the core with the plugin's own keys and passes when allowed", async () => {
    const calls: Array<[string, unknown]> = [];
    const ctx = { call: async (a: string, p: unknown) => (calls.push([a, p]), { allowed: true, retryAfter: 0, limited: [] }) };
    await rateLimit(ctx as never, "channel-x", rules);
    expect(calls).toEqual([[CORE_RATE_LIMIT_ACTION, { rules: [{ key: "plugin:channel-x:session:ip:1.2.3.4", max: 2, windowSeconds: 60 }] }]]);
  });

  it("throws ERR_RATE_LIMITED (429) with retryAfter when the core says no", async () => {
    const ctx = { call: async () => ({ allowed: false, retryAfter: 42, limited: ["x"] }) };
    const err = await rateLimit(ctx as never, "channel-x", rules).catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect({ type: err.type, code: err.code, data: err.data }).toEqual({ type: "ERR_RATE_LIMITED", code: 429, data: { retryAfter: 42 } });
  });

  it("lets the call through when the core cannot count", async () => {
    const ctx = { call: async () => Promise.reject(new Error("Service 'api.rateLimit' is not found.")) };
    await expect(rateLimit(ctx as never, "channel-x", rules)).resolves.toBeUndefined();
  });
});
