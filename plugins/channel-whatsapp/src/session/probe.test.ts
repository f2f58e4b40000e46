import * as net from "node:net";
import { probeProxy } from "./probe";

describe("probeProxy under the outbound URL policy", () => {
  let server: net.Server;
  let port: number;
  let accepted = 0;
  beforeAll(async () => {
    server = net.createServer((s) => {
      accepted++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("refuses a proxy on loopback the platform does not allow, without connecting", async () => {
    for (const url of [`http://127.0.0.1:${port}`, `socks5://localhost:${port}`, "socks5h://10.0.0.1:1080", "http://[::1]:3128"]) {
      const r = await probeProxy(url, { allow: [] });
      expect(r.ok).toBe(false);
      expect(r.detail).toMatch(/internal network|localhost/);
    }
    expect(accepted).toBe(0);
  });

  it("reaches it when the platform's allow-list names it", async () => {
    expect(await probeProxy(`socks5://127.0.0.1:${port}`, { allow: ["127.0.0.1"] })).toEqual({ ok: true, detail: `the proxy socks5://127.0.0.1:${port} answers` });
    expect(accepted).toBe(1);
  });
});
