/**
 * The tenant's IMAP and SMTP servers under the platform's outbound URL policy, in the plugin
 * itself (whatever the core checked when the settings were stored): a loopback or private
 * server is refused at connect, test and send time unless the allow-list in the plugin's
 * context names it; the connection goes to the address checked, the name kept for TLS.
 */
import { callChannel, OutboundUrlError, type OutboundLookup } from "@openatende/plugin-sdk";
import { serverTarget } from "../src/server-address";
import { dropRedisNamespace, Harness, SERVICE, startHarness, useTestContext } from "./support/harness";

const settings = (host: string) => ({
  imapHost: host,
  imapPort: 1,
  imapTls: false,
  imapUser: "alice",
  imapPassword: "secret",
  smtpHost: host,
  smtpPort: 1,
  smtpTls: false,
  smtpUser: "alice",
  smtpPassword: "secret",
  fromAddress: "alice@support.test",
  fromName: "Suporte",
});

describe("serverTarget", () => {
  const dns: OutboundLookup = async (host) => (host === "mail.example.com" ? [{ address: "93.184.216.34", family: 4 }] : host === "imap.corp" ? [{ address: "10.0.0.9", family: 4 }] : []);

  it("connects to the address checked and keeps the name for TLS", async () => {
    expect(await serverTarget("mail.example.com", { lookup: dns })).toEqual({ host: "93.184.216.34", servername: "mail.example.com" });
    expect(await serverTarget("93.184.216.34", { lookup: dns })).toEqual({ host: "93.184.216.34" });
  });

  it("refuses internal servers unless allow-listed, and leaves a name that does not resolve to the client's own error", async () => {
    for (const host of ["imap.corp", "127.0.0.1", "::1", "localhost", "169.254.169.254"]) {
      await expect(serverTarget(host, { lookup: dns })).rejects.toBeInstanceOf(OutboundUrlError);
    }
    expect(await serverTarget("imap.corp", { allow: ["10.0.0.0/8"], lookup: dns })).toEqual({ host: "10.0.0.9", servername: "imap.corp" });
    expect(await serverTarget("nowhere.example.com", { lookup: dns })).toEqual({ host: "nowhere.example.com" });
  });
});

describe("the e-mail plugin with and without the platform's allow-list", () => {
  let h: Harness | undefined;
  let namespace = "";
  afterEach(async () => {
    await h?.stop();
    h = undefined;
    if (namespace) await dropRedisNamespace(namespace);
  });

  it("refuses a loopback server at connect and test time when the platform does not allow it", async () => {
    const context = useTestContext();
    namespace = context.namespace;
    context.outboundAllow = [];
    h = await startHarness();
    const ref = { tenantId: 21, connectionId: 1 };
    const res = await callChannel(h.broker, SERVICE, "connect", { ...ref, settings: settings("127.0.0.1") });
    expect(res).toMatchObject({ status: "disconnected", detail: expect.stringMatching(/^ERR_URL_NOT_ALLOWED: /) });
    const tested = (await callChannel(h.broker, SERVICE, "test", { tenantId: 21, settings: settings("127.0.0.1") })) as { ok: boolean; imap: { code: string }; smtp: { code: string } };
    expect(tested).toMatchObject({ ok: false, imap: { code: "ERR_URL_NOT_ALLOWED" }, smtp: { code: "ERR_URL_NOT_ALLOWED" } });
  });

  it("lets the same server through when the allow-list names it (nothing listens there: the client's own error)", async () => {
    const context = useTestContext();
    namespace = context.namespace;
    context.outboundAllow = ["127.0.0.1"];
    h = await startHarness();
    const tested = (await callChannel(h.broker, SERVICE, "test", { tenantId: 21, settings: settings("127.0.0.1") })) as { ok: boolean; imap: { code: string }; smtp: { code: string } };
    expect(tested).toMatchObject({ ok: false, imap: { code: "ERR_EMAIL_CONNECTION_REFUSED" }, smtp: { code: "ERR_EMAIL_CONNECTION_REFUSED" } });
  });
});
