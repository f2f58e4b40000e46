import { AppError } from "../errors/app-error";
import { assertOutboundHost, assertOutboundSettings, assertOutboundUrl, outboundFieldsOf } from "./url-policy";

const none = { outboundUrlAllowlist: [] as string[] };
const dns = async (host: string) => (host === "intranet.example.com" ? [{ address: "10.0.0.7", family: 4 }] : []);

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("the core's outbound URL checks", () => {
  it.each(["http://127.0.0.1/", "http://10.1.2.3/", "http://169.254.169.254/", "http://[::1]/"])("refuses %s with ERR_URL_NOT_ALLOWED naming the field", async (url) => {
    const err = await errorOf(assertOutboundUrl(none, url, "webhookUrl", { lookup: dns }));
    expect({ type: err.type, code: err.code, data: err.data }).toEqual({ type: "ERR_URL_NOT_ALLOWED", code: 400, data: { field: "webhookUrl", reason: "private-address", host: expect.any(String) } });
  });

  it("refuses a name resolving to a private address; accepts it when allow-listed, and a name that does not resolve yet", async () => {
    expect((await errorOf(assertOutboundUrl(none, "https://intranet.example.com/", "url", { lookup: dns }))).data).toMatchObject({ reason: "private-address", host: "intranet.example.com" });
    await expect(assertOutboundUrl({ outboundUrlAllowlist: ["10.0.0.0/8"] }, "https://intranet.example.com/", "url", { lookup: dns })).resolves.toBeUndefined();
    await expect(assertOutboundUrl(none, "https://later.example.com/", "url", { lookup: dns })).resolves.toBeUndefined();
    expect((await errorOf(assertOutboundUrl(none, "https://later.example.com/", "url", { lookup: dns, allowUnresolvable: false }))).data).toMatchObject({ reason: "unresolvable" });
  });

  it("checks bare hosts", async () => {
    expect((await errorOf(assertOutboundHost(none, "192.168.0.1", "smtpHost", { lookup: dns }))).data).toMatchObject({ field: "smtpHost" });
    await expect(assertOutboundHost({ outboundUrlAllowlist: ["192.168.0.1"] }, "192.168.0.1", "smtpHost", { lookup: dns })).resolves.toBeUndefined();
  });

  it("checks the settings fields a schema marks outbound, and only those", async () => {
    const schema = { apiUrl: { type: "string", outbound: "url" }, mailHost: { type: "string", outbound: "host" }, proxyUrl: { type: "string", outbound: "proxy" }, iconUrl: { type: "string" }, token: { type: "string" }, odd: { type: "string", outbound: "yes" } };
    expect(outboundFieldsOf(schema)).toEqual([
      { name: "apiUrl", kind: "url" },
      { name: "mailHost", kind: "host" },
      { name: "proxyUrl", kind: "proxy" },
    ]);
    await expect(assertOutboundSettings(none, schema, { apiUrl: "https://93.184.216.34", iconUrl: "http://127.0.0.1/icon.png", mailHost: "" }, "settings", { lookup: dns })).resolves.toBeUndefined();
    expect((await errorOf(assertOutboundSettings(none, schema, { apiUrl: "https://93.184.216.34", mailHost: "10.0.0.1" }, "settings", { lookup: dns }))).data).toMatchObject({ field: "settings.mailHost" });
    // A proxy of any scheme: its host is what is checked.
    expect((await errorOf(assertOutboundSettings(none, schema, { proxyUrl: "socks5://user@10.0.0.1:1080" }, "settings", { lookup: dns }))).data).toMatchObject({ field: "settings.proxyUrl", reason: "private-address" });
    await expect(assertOutboundSettings(none, schema, { proxyUrl: "socks5h://93.184.216.34:1080" }, "settings", { lookup: dns })).resolves.toBeUndefined();
  });
});
