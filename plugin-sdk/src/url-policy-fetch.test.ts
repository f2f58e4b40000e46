import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { safeFetch } from "./url-policy-fetch";
import { OutboundUrlError, type OutboundLookup } from "./url-policy";

/** A server on 127.0.0.1 that records what reaches it; /go?to=… redirects. */
async function localServer(): Promise<{ port: number; hits: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>; close(): Promise<void> }> {
  const hits: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      hits.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const u = new URL(req.url!, "http://x");
      if (u.pathname === "/go") {
        res.writeHead(Number(u.searchParams.get("status") ?? 302), { location: u.searchParams.get("to")! });
        return res.end();
      }
      res.writeHead(200, { "content-type": "application/json", "x-seen": req.method! });
      res.end(JSON.stringify({ path: u.pathname, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, hits, close: () => new Promise((r) => server.close(() => r())) };
}

/** "fake.local" is the local server; the allow-list names it, not 127.0.0.1. */
const dns: OutboundLookup = async (host) => (host === "fake.local" ? [{ address: "127.0.0.1", family: 4 }] : []);
const policy = { allow: ["fake.local"], lookup: dns };

describe("safeFetch", () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  beforeEach(async () => (s = await localServer()));
  afterEach(() => s.close());

  it("calls an allow-listed server and answers a standard Response", async () => {
    const res = await safeFetch(`http://fake.local:${s.port}/api?x=1`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ a: 1 }) }, policy);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-seen")).toBe("POST");
    expect(await res.json()).toEqual({ path: "/api", body: '{"a":1}' });
    expect(s.hits[0]).toMatchObject({ method: "POST", url: "/api?x=1", headers: { host: `fake.local:${s.port}`, "content-type": "application/json" } });
  });

  it("refuses a private address before connecting", async () => {
    const err = await safeFetch(`http://127.0.0.1:${s.port}/`, {}, policy).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundUrlError);
    expect(err).toMatchObject({ code: "ERR_URL_NOT_ALLOWED", reason: "private-address" });
    expect(s.hits).toEqual([]);
  });

  it("refuses a redirect to 127.0.0.1 from an allow-listed server, never calling it", async () => {
    const to = `http://127.0.0.1:${s.port}/secret`;
    const err = await safeFetch(`http://fake.local:${s.port}/go?to=${encodeURIComponent(to)}`, {}, policy).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundUrlError);
    expect((err as Error).message).toMatch(/redirect/i);
    expect(s.hits.map((h) => new URL(h.url, "http://x").pathname)).toEqual(["/go"]);
  });

  it("refuses a name that resolves to a public address for the check and to 127.0.0.1 at connect time (rebinding)", async () => {
    const answers = ["93.184.216.34", "127.0.0.1"];
    const asked: string[] = [];
    const rebinding: OutboundLookup = async (host) => {
      asked.push(host);
      return [{ address: answers.shift() ?? "127.0.0.1", family: 4 }];
    };
    const err = await safeFetch(`http://rebind.example.com:${s.port}/secret`, {}, { lookup: rebinding }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundUrlError);
    expect(err).toMatchObject({ reason: "private-address", address: "127.0.0.1" });
    expect(asked).toEqual(["rebind.example.com", "rebind.example.com"]);
    expect(s.hits).toEqual([]);
  });

  it("follows redirects the policy allows, as fetch does (303 → GET, credentials kept on the same origin)", async () => {
    const to = `http://fake.local:${s.port}/landed`;
    const res = await safeFetch(`http://fake.local:${s.port}/go?status=303&to=${encodeURIComponent(to)}`, { method: "POST", body: "x=1", headers: { authorization: "Bearer t" } }, policy);
    expect(await res.json()).toEqual({ path: "/landed", body: "" });
    expect(res.url).toBe(to);
    expect(s.hits[1]).toMatchObject({ method: "GET", headers: { authorization: "Bearer t" } });
    // 307 keeps the method and the body.
    const again = await safeFetch(`http://fake.local:${s.port}/go?status=307&to=${encodeURIComponent(to)}`, { method: "PUT", body: "y=2" }, policy);
    expect(await again.json()).toEqual({ path: "/landed", body: "y=2" });
  });

  it("drops credentials when a redirect leaves the origin", async () => {
    const other = { allow: ["fake.local", "other.local"], lookup: (async (host) => (host.endsWith(".local") ? [{ address: "127.0.0.1", family: 4 }] : [])) as OutboundLookup };
    const to = `http://other.local:${s.port}/landed`;
    await safeFetch(`http://fake.local:${s.port}/go?to=${encodeURIComponent(to)}`, { headers: { authorization: "Bearer t", cookie: "a=1", "x-kept": "yes" } }, other);
    expect(s.hits[0].headers).toMatchObject({ authorization: "Bearer t", cookie: "a=1" });
    expect(s.hits[1].headers).toMatchObject({ host: `other.local:${s.port}`, "x-kept": "yes" });
    expect(s.hits[1].headers.authorization).toBeUndefined();
    expect(s.hits[1].headers.cookie).toBeUndefined();
  });

  it("answers the redirect itself with redirect: manual, and refuses it with redirect: error", async () => {
    const go = `http://fake.local:${s.port}/go?to=${encodeURIComponent("http://127.0.0.1/")}`;
    const res = await safeFetch(go, { redirect: "manual" }, policy);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://127.0.0.1/");
    await expect(safeFetch(go, { redirect: "error" }, policy)).rejects.toThrow(/does not follow/);
  });

  it("stops after maxRedirects", async () => {
    const loop = `http://fake.local:${s.port}/go?to=${encodeURIComponent(`/go?to=/go`)}`;
    await expect(safeFetch(loop, { maxRedirects: 2 }, policy)).rejects.toThrow(/more than 2 redirects/);
    expect(s.hits).toHaveLength(3);
  });

  it("rejects with the signal's reason when it aborts", async () => {
    const ctl = new AbortController();
    ctl.abort(new Error("gave up"));
    await expect(safeFetch(`http://fake.local:${s.port}/`, { signal: ctl.signal }, policy)).rejects.toThrow("gave up");
  });
});
