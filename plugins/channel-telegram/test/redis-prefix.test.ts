/**
 * The sent log belongs to the installation: the plugin keeps it under its context's
 * redisPrefix, so two installations sharing one Redis and one NAMESPACE never answer each
 * other's sends from it, even for the same connection token and message id.
 */
import { ServiceBroker } from "moleculer";
import Redis from "ioredis";
import { withPluginContext, type SendResult } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { uid } from "@openatende/core/testkit";

const namespace = `oa-tg-prefix-${uid()}`;
const redis = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });

/** The plugin's service under one installation's context, in a broker of its own. */
async function installation(id: string) {
  const broker = new ServiceBroker({ nodeID: `tg-${id}`, namespace, logger: false });
  const context = { namespace, redisPrefix: `${namespace}:${id}`, redisUrl: "redis://127.0.0.1:6379", dataDir: "/tmp", publicUrl: "http://localhost", localFiles: true, external: false };
  const svc = broker.createService(withPluginContext(plugin.schema, context)) as unknown as { channel: { opts: { sentLog: { once(scope: object, send: () => Promise<SendResult>): Promise<SendResult> } } } };
  await broker.start();
  return { broker, sentLog: svc.channel.opts.sentLog };
}

afterAll(async () => {
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

it("two installations on one Redis keep their sent logs apart", async () => {
  const a = await installation("inst-a");
  const b = await installation("inst-b");
  try {
    const scope = { id: ["same-token", 1], what: [42, "Oi"] };
    const sent: string[] = [];
    const send = (who: string) => async (): Promise<SendResult> => (sent.push(who), { providerMessageId: `${who}-1` } as SendResult);

    expect(await a.sentLog.once(scope, send("a"))).toMatchObject({ providerMessageId: "a-1" });
    // The same send again in installation a is answered from its log…
    expect(await a.sentLog.once(scope, send("a"))).toMatchObject({ providerMessageId: "a-1" });
    // …and in installation b it is a send of its own.
    expect(await b.sentLog.once(scope, send("b"))).toMatchObject({ providerMessageId: "b-1" });
    expect(sent).toEqual(["a", "b"]);
    expect((await redis.keys(`${namespace}:inst-a:channel-telegram:sent:*`)).length).toBe(1);
    expect((await redis.keys(`${namespace}:inst-b:channel-telegram:sent:*`)).length).toBe(1);
    expect(await redis.keys(`${namespace}:channel-telegram:*`)).toEqual([]);
  } finally {
    await a.broker.stop();
    await b.broker.stop();
  }
});
