import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { outboundAgents } from "./url-policy-agent";
import { OutboundUrlError, type OutboundLookup } from "./url-policy";

function get(url: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("outboundAgents", () => {
  let server: http.Server;
  let port: number;
  let hits: string[];
  beforeEach(async () => {
    hits = [];
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const dns: OutboundLookup = async (host) => (host === "fake.local" || host === "evil.example.com" ? [{ address: "127.0.0.1", family: 4 }] : []);

  it("connects to a name the allow-list names, through the policy's resolver", async () => {
    const agents = outboundAgents({ allow: ["fake.local"], lookup: dns });
    expect(await get(`http://fake.local:${port}/a`, agents.http)).toEqual({ status: 200, body: "ok" });
    expect(hits).toEqual(["/a"]);
    expect(agents.for("https://x.example.com/")).toBe(agents.https);
    expect(agents.for(new URL("http://x.example.com/"))).toBe(agents.http);
    // node-fetch hands its agent function a url.parse() object.
    expect(agents.for({ protocol: "https:" })).toBe(agents.https);
    agents.http.destroy();
  });

  it("refuses an internal IP literal and a name resolving to one, opening no socket", async () => {
    const agents = outboundAgents({ allow: ["fake.local"], lookup: dns });
    const literal = await get(`http://127.0.0.1:${port}/secret`, agents.http).catch((e: unknown) => e);
    expect(literal).toBeInstanceOf(OutboundUrlError);
    expect(literal).toMatchObject({ reason: "private-address", address: "127.0.0.1" });
    const named = await get(`http://evil.example.com:${port}/secret`, agents.http).catch((e: unknown) => e);
    expect(named).toBeInstanceOf(OutboundUrlError);
    expect(named).toMatchObject({ reason: "private-address", host: "evil.example.com" });
    expect(hits).toEqual([]);
    agents.http.destroy();
  });

  it("lets an allow-listed IP through", async () => {
    const agents = outboundAgents({ allow: ["127.0.0.0/8"], lookup: dns });
    expect(await get(`http://127.0.0.1:${port}/b`, agents.http)).toMatchObject({ status: 200 });
    agents.http.destroy();
  });
});
