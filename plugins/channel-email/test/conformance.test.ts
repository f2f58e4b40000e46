import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { runChannelConformance, type PluginContext } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { Dovecot, startDovecot } from "./support/dovecot";
import { startSmtpSink, SmtpSink } from "./support/smtp-sink";
import { compose } from "./support/mail";
import { dropRedisNamespace, emailSettings, useTestContext } from "./support/harness";

/**
 * The e-mail plugin honours the channel contract (SDK conformance kit, fake core), against a
 * real Dovecot and a local SMTP server; the media the kit sends is served by a local HTTP server.
 */
const user = { user: "conformance", pass: "conformance-pw" };
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");
let dv: Dovecot;
let smtp: SmtpSink;
let files: http.Server;
let mediaUrl = "";
let context: PluginContext | null = null;
let namespace = "";
/** The same provider message, delivered again, is the same bytes appended again. */
const raws = new Map<string, Buffer>();

runChannelConformance({
  plugin,
  async setup() {
    context = useTestContext();
    namespace = context.namespace;
    [dv, smtp] = await Promise.all([startDovecot([user]), startSmtpSink()]);
    files = http.createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(PNG));
    await new Promise<void>((r) => files.listen(0, "127.0.0.1", () => r()));
    mediaUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/conformance.png`;
  },
  async teardown() {
    await smtp?.stop();
    await dv?.destroy();
    await new Promise((r) => files?.close(r));
    await dropRedisNamespace(namespace);
  },
  settings: () => emailSettings(dv, user, smtp),
  context: () => context!,
  to: { externalId: "customer@conformance.test" },
  get media() {
    return { url: mediaUrl, mimeType: "image/png", fileName: "conformance.png", size: PNG.length };
  },
  timeoutMs: 10_000,
  driver: {
    async triggerInbound(_broker, _ref, key) {
      if (!raws.has(key)) raws.set(key, await compose({ from: "Customer <customer@conformance.test>", to: "conformance@support.test", subject: `Conformance ${key}`, text: key, messageId: `<${key}@conformance.test>` }));
      await dv.append(user, raws.get(key)!);
    },
  },
});
