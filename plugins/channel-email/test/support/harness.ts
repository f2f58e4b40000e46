/**
 * The plugin on a broker of its own, beside the SDK's fake core (which records every call the
 * plugin makes to channels.inbound / ack / status, valid or not). Service settings can be
 * overridden (poll interval, IDLE off, fast reconnection) the way an operator would.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ServiceBroker } from "moleculer";
import { createFakeCore, FakeCore, withPluginContext, type PluginContext } from "@openatende/plugin-sdk";
import plugin from "../../src/service";
import type { EmailChannel, EmailServiceSettings } from "../../src/channel";
import type { Dovecot, DovecotUser } from "./dovecot";
import type { SmtpSink } from "./smtp-sink";
import { uid } from "./mail";

export const SERVICE = "v1.channel-email";

/** Removes what a test run left in Redis under its namespace (with or without an installation id after it). */
export async function dropRedisNamespace(namespace: string, url = "redis://127.0.0.1:6379"): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const IORedis = require("ioredis") as typeof import("ioredis").default;
  const r = new IORedis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", `${namespace}:*channel-email:*`, "COUNT", 500);
      if (keys.length) await r.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    r.disconnect();
  }
}

let current: PluginContext | null = null;

/**
 * The platform context the plugin gets in these tests (SDK pluginContext): its own Redis
 * namespace and data folder. The harness and the conformance kit hand it to the service.
 */
export function useTestContext(): PluginContext {
  const namespace = `oa-email-${uid()}`;
  current = {
    namespace,
    // As a host gives it: the installation's id after the namespace.
    redisPrefix: `${namespace}:installation-${uid()}`,
    redisUrl: "redis://127.0.0.1:6379",
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "oa-email-data-")),
    publicUrl: "http://localhost",
    localFiles: true,
    external: false,
    // The test Dovecot and SMTP sink listen on loopback: the platform's allow-list lets the plugin reach them.
    outboundAllow: ["127.0.0.1"],
  };
  return current;
}

export function emailSettings(dv: Dovecot, user: DovecotUser, smtp: SmtpSink, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    imapHost: dv.host,
    imapPort: dv.port,
    imapTls: false,
    imapUser: user.user,
    imapPassword: user.pass,
    smtpHost: smtp.host,
    smtpPort: smtp.port,
    smtpTls: false,
    smtpUser: smtp.user,
    smtpPassword: smtp.pass,
    fromAddress: `${user.user}@support.test`,
    fromName: `Suporte ${user.user}`,
    ...over,
  };
}

export interface Harness {
  broker: ServiceBroker;
  core: FakeCore;
  channel(): EmailChannel;
  /** Destroys the plugin's service and creates it again: a restart with nothing kept in memory. */
  restartPlugin(): Promise<void>;
  stop(): Promise<void>;
}

export async function startHarness(settings: Partial<EmailServiceSettings> = {}): Promise<Harness> {
  const broker = new ServiceBroker({ logger: false, nodeID: `email-test-${uid()}` });
  const core = createFakeCore();
  broker.createService(core.schema);
  const context = current ?? useTestContext();
  const schema = () => withPluginContext({ ...plugin.schema, settings: { ...(plugin.schema.settings as object), ...settings } as never }, context);
  broker.createService(schema());
  await broker.start();
  const local = () => broker.getLocalService({ name: "channel-email", version: 1 }) as unknown as { channel: EmailChannel } | undefined;
  return {
    broker,
    core,
    channel: () => local()!.channel,
    async restartPlugin() {
      await broker.destroyService(local() as never);
      broker.createService(schema());
      await broker.waitForServices([SERVICE]);
    },
    stop: () => broker.stop(),
  };
}
