import { AllowList, allowEntryError, checkOutboundHost, checkOutboundUrl, isPublicAddress, type OutboundLookup } from "./url-policy";

/** A resolver that knows a few names, as a test's DNS. */
function fakeDns(table: Record<string, string[]>): OutboundLookup & { asked: string[] } {
  const asked: string[] = [];
  const fn = async (host: string) => {
    asked.push(host);
    return (table[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(fn, { asked });
}

const noDns = fakeDns({});

describe("checkOutboundUrl: addresses", () => {
  it.each([
    ["http://127.0.0.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://2130706433/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://10.1.2.3:8080/x", "10.1.2.3"],
    ["http://172.16.0.1/", "172.16.0.1"],
    ["http://172.31.255.255/", "172.31.255.255"],
    ["http://192.168.1.1/", "192.168.1.1"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["http://100.64.0.1/", "100.64.0.1"],
    ["http://0.0.0.0/", "0.0.0.0"],
    ["http://224.0.0.1/", "224.0.0.1"],
    ["http://255.255.255.255/", "255.255.255.255"],
    ["http://[::1]/", "::1"],
    ["http://[::]/", "::"],
    ["http://[fe80::1]/", "fe80::1"],
    ["http://[fc00::1]/", "fc00::1"],
    ["http://[fd12:3456::1]/", "fd12:3456::1"],
    ["http://[ff02::1]/", "ff02::1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[::ffff:10.0.0.1]/", "::ffff:a00:1"],
    ["http://[64:ff9b::a9fe:a9fe]/", "64:ff9b::a9fe:a9fe"],
    ["http://[2002:c0a8:101::1]/", "2002:c0a8:101::1"],
  ])("refuses %s (the parser reads %s)", async (url, address) => {
    const r = await checkOutboundUrl(url, { lookup: noDns });
    expect(r).toEqual({ ok: false, reason: "private-address", host: address, address });
    expect(noDns.asked).toEqual([]);
  });

  it("lets public addresses through and answers the address to connect to", async () => {
    expect(await checkOutboundUrl("https://93.184.216.34/api", { lookup: noDns })).toMatchObject({ ok: true, address: "93.184.216.34", family: 4 });
    expect(await checkOutboundUrl("http://[2606:4700::1111]:8080/", { lookup: noDns })).toMatchObject({ ok: true, address: "2606:4700::1111", family: 6 });
    expect(await checkOutboundUrl("http://[::ffff:8.8.8.8]/", { lookup: noDns })).toMatchObject({ ok: true });
    // The edges of the private blocks are public.
    for (const a of ["172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "11.0.0.1", "9.255.255.255", "169.253.1.1"]) expect(isPublicAddress(a)).toBe(true);
  });
});

describe("checkOutboundUrl: names", () => {
  it("refuses localhost and names under it without asking DNS", async () => {
    const dns = fakeDns({ localhost: ["127.0.0.1"] });
    for (const u of ["http://localhost:3000/", "http://LOCALHOST./", "http://api.localhost/"]) {
      expect(await checkOutboundUrl(u, { lookup: dns })).toMatchObject({ ok: false, reason: "localhost" });
    }
    expect(dns.asked).toEqual([]);
  });

  it("refuses a name that resolves to a private address", async () => {
    const dns = fakeDns({ "evil.example.com": ["127.0.0.1"] });
    expect(await checkOutboundUrl("https://evil.example.com/hook", { lookup: dns })).toEqual({ ok: false, reason: "private-address", host: "evil.example.com", address: "127.0.0.1" });
    expect(dns.asked).toEqual(["evil.example.com"]);
  });

  it("refuses a name with one public and one private address: every address must pass", async () => {
    const dns = fakeDns({ "mixed.example.com": ["93.184.216.34", "10.0.0.5"] });
    expect(await checkOutboundUrl("https://mixed.example.com/", { lookup: dns })).toMatchObject({ ok: false, reason: "private-address", address: "10.0.0.5" });
  });

  it("lets a name with public addresses through, answering the first", async () => {
    const dns = fakeDns({ "api.example.com": ["93.184.216.34", "2606:2800:220:1::1"] });
    const r = await checkOutboundUrl("https://api.example.com/v1?x=1", { lookup: dns });
    expect(r).toMatchObject({ ok: true, host: "api.example.com", address: "93.184.216.34", family: 4 });
    expect(r.ok && r.url.pathname).toBe("/v1");
  });

  it("refuses a name that resolves to nothing, or whose resolver fails", async () => {
    expect(await checkOutboundUrl("https://nowhere.example.com/", { lookup: noDns })).toMatchObject({ ok: false, reason: "unresolvable" });
    const failing: OutboundLookup = async () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }));
    expect(await checkOutboundUrl("https://nowhere.example.com/", { lookup: failing })).toMatchObject({ ok: false, reason: "unresolvable" });
  });
});

describe("checkOutboundUrl: scheme and credentials", () => {
  it.each([
    ["ftp://93.184.216.34/file", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["gopher://93.184.216.34/", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["https://user:secret@93.184.216.34/", "credentials"],
    ["https://user@93.184.216.34/", "credentials"],
    ["not a url", "invalid-url"],
    ["", "invalid-url"],
  ])("refuses %s (%s)", async (url, reason) => {
    expect(await checkOutboundUrl(url, { lookup: noDns })).toMatchObject({ ok: false, reason });
  });
});

describe("the platform's allow-list", () => {
  it("opens an IP, a CIDR, a host name and the names under a *. entry", async () => {
    const dns = fakeDns({ "fake.local": ["127.0.0.1"], "wuzapi.internal.example": ["10.9.8.7"], "box.lan": ["192.168.0.10"] });
    const allow = ["127.0.0.1", "10.0.0.0/8", "fake.local", "*.internal.example"];
    expect(await checkOutboundUrl("http://127.0.0.1:8080/", { allow, lookup: dns })).toMatchObject({ ok: true, address: "127.0.0.1" });
    expect(await checkOutboundUrl("http://[::ffff:127.0.0.1]/", { allow, lookup: dns })).toMatchObject({ ok: true });
    expect(await checkOutboundUrl("http://10.200.3.4/", { allow, lookup: dns })).toMatchObject({ ok: true });
    expect(await checkOutboundUrl("http://fake.local:9000/", { allow, lookup: dns })).toMatchObject({ ok: true, address: "127.0.0.1" });
    expect(await checkOutboundUrl("http://wuzapi.internal.example/", { allow, lookup: dns })).toMatchObject({ ok: true, address: "10.9.8.7" });
    // What the list does not name stays closed.
    expect(await checkOutboundUrl("http://127.0.0.2/", { allow, lookup: dns })).toMatchObject({ ok: false, reason: "private-address" });
    expect(await checkOutboundUrl("http://192.168.1.1/", { allow, lookup: dns })).toMatchObject({ ok: false, reason: "private-address" });
    expect(await checkOutboundUrl("http://box.lan/", { allow, lookup: dns })).toMatchObject({ ok: false, reason: "private-address" });
    expect(await checkOutboundUrl("http://localhost/", { allow, lookup: dns })).toMatchObject({ ok: false, reason: "localhost" });
    expect(await checkOutboundUrl("http://[::1]/", { allow, lookup: dns })).toMatchObject({ ok: false });
    // The list never opens another scheme or credentials.
    expect(await checkOutboundUrl("ftp://127.0.0.1/", { allow, lookup: dns })).toMatchObject({ ok: false, reason: "scheme" });
  });

  it("allows a name under localhost only when named, and IPv6 ranges", async () => {
    const dns = fakeDns({ localhost: ["127.0.0.1", "::1"] });
    expect(await checkOutboundUrl("http://localhost:1/", { allow: ["localhost"], lookup: dns })).toMatchObject({ ok: true });
    expect(await checkOutboundUrl("http://[fd00::5]/", { allow: ["fd00::/8"], lookup: dns })).toMatchObject({ ok: true });
    expect(await checkOutboundUrl("http://[::1]/", { allow: ["::1"], lookup: dns })).toMatchObject({ ok: true });
  });

  it("refuses entries that are neither IP, CIDR nor host name", () => {
    for (const bad of ["10.0.0.0/33", "10.0.0.0/8/1", "http://x", "a b", "1.2.3.4/x", "fe80::/129", "-bad.example"]) expect(allowEntryError(bad)).toBeDefined();
    for (const good of ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "fake.local", "*.corp.example", "[::1]"]) expect(allowEntryError(good)).toBeUndefined();
    expect(() => new AllowList(["10.0.0.0/99"])).toThrow(/CIDR/);
    expect(new AllowList([" ", ""]).empty).toBe(true);
  });

  it("checks bare hosts the same way (IMAP, SMTP, proxies)", async () => {
    const dns = fakeDns({ "mail.example.com": ["93.184.216.34"], "imap.corp": ["10.1.1.1"] });
    expect(await checkOutboundHost("mail.example.com", { lookup: dns })).toMatchObject({ ok: true, address: "93.184.216.34" });
    expect(await checkOutboundHost("imap.corp", { lookup: dns })).toMatchObject({ ok: false, reason: "private-address" });
    expect(await checkOutboundHost("127.0.0.1", { lookup: dns })).toMatchObject({ ok: false, reason: "private-address" });
    expect(await checkOutboundHost("[::1]", { lookup: dns })).toMatchObject({ ok: false, reason: "private-address" });
    expect(await checkOutboundHost("127.0.0.1", { allow: ["127.0.0.1"], lookup: dns })).toMatchObject({ ok: true });
  });
});
