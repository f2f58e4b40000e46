/**
 * The Bot API root is the tenant's URL: the plugin reaches it only under the platform's
 * outbound URL policy (the allow-list its context carries), whatever the core checked when the
 * URL was stored. The fake Bot API listens on 127.0.0.1: refused without the allow-list, reached
 * with it.
 */
import { ServiceBroker } from "moleculer";
import { withPluginContext, type TestResult } from "@openatende/plugin-sdk";
import { uid } from "@openatende/core/testkit";
import plugin from "../src/service";
import { FakeBotApi } from "./fake-bot-api";

const namespace = `oa-tg-policy-${uid()}`;

async function pluginWith(outboundAllow: string[] | undefined) {
  const broker = new ServiceBroker({ nodeID: `tg-policy-${uid()}`, namespace, logger: false });
  const context = { namespace, redisPrefix: namespace, redisUrl: "redis://127.0.0.1:6379", dataDir: "/tmp", publicUrl: "http://localhost", localFiles: true, external: false, ...(outboundAllow ? { outboundAllow } : {}) };
  broker.createService(withPluginContext(plugin.schema, context));
  await broker.start();
  return broker;
}

describe("the Bot API root under the outbound URL policy", () => {
  let api: FakeBotApi;
  beforeAll(async () => (api = await FakeBotApi.start()));
  afterAll(() => api.close());

  it("refuses a loopback apiRoot the platform does not allow, calling nothing", async () => {
    const bot = api.addBot();
    for (const allow of [undefined, [], ["10.0.0.0/8"]]) {
      const broker = await pluginWith(allow);
      try {
        const r = (await broker.call("v1.channel-telegram.test", { tenantId: 1, settings: { token: bot.token, mode: "polling", apiRoot: api.url } })) as TestResult;
        expect(r.ok).toBe(false);
        expect(r.detail).toMatch(/internal network/);
      } finally {
        await broker.stop();
      }
    }
    expect(api.calls.filter((c) => c.token === bot.token)).toEqual([]);
  });

  it("reaches it when the platform's allow-list names it", async () => {
    const bot = api.addBot({ username: `policy_${uid()}_bot` });
    const broker = await pluginWith(["127.0.0.1"]);
    try {
      const r = (await broker.call("v1.channel-telegram.test", { tenantId: 1, settings: { token: bot.token, mode: "polling", apiRoot: api.url } })) as TestResult;
      expect(r).toEqual({ ok: true, detail: `@${bot.username}` });
    } finally {
      await broker.stop();
    }
  });
});
