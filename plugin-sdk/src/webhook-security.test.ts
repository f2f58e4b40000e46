import { Readable } from "node:stream";
import { hmacSignatureOf, hmacSignatureValid, readWebhookBody, sameSecret, WebhookBodyTooLarge } from "./webhook-security";

describe("webhook security", () => {
  const body = Buffer.from('{"text":"Olá, \\u00e7 мир"}');

  it("accepts the signature of the exact bytes and refuses a tampered body, a wrong secret or a malformed header", () => {
    const header = hmacSignatureOf(body, "app-secret-123456");
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(hmacSignatureValid(body, "app-secret-123456", header)).toBe(true);
    expect(hmacSignatureValid(Buffer.from(body.toString().replace("мир", "mир")), "app-secret-123456", header)).toBe(false);
    expect(hmacSignatureValid(body, "another-secret-000", header)).toBe(false);
    expect(hmacSignatureValid(body, "app-secret-123456", undefined)).toBe(false);
    expect(hmacSignatureValid(body, "app-secret-123456", header.slice(0, -2))).toBe(false);
    expect(hmacSignatureValid(body, "app-secret-123456", header.replace("sha256=", "sha1="))).toBe(false);
    expect(hmacSignatureValid(body, "", header)).toBe(false);
  });

  it("checks a bare-hex signature when told there is no prefix", () => {
    const header = hmacSignatureOf(body, "partner-secret", { prefix: "" });
    expect(header).toMatch(/^[0-9a-f]{64}$/);
    expect(hmacSignatureValid(body, "partner-secret", header, { prefix: "" })).toBe(true);
    expect(hmacSignatureValid(body, "partner-secret", header)).toBe(false);
  });

  it("compares secrets of any length in constant time, refusing empty or missing ones", () => {
    expect(sameSecret("s3cret-token", "s3cret-token")).toBe(true);
    expect(sameSecret("s3cret-toke", "s3cret-token")).toBe(false);
    expect(sameSecret("s3cret-token-longer", "s3cret-token")).toBe(false);
    expect(sameSecret(undefined, "s3cret-token")).toBe(false);
    expect(sameSecret("", "")).toBe(false);
  });

  it("reads a body up to its ceiling and refuses a larger one", async () => {
    expect((await readWebhookBody(Readable.from([Buffer.from("ab"), "cd"]), 10)).toString()).toBe("abcd");
    expect((await readWebhookBody(null, 10)).length).toBe(0);
    await expect(readWebhookBody(Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), 10)).rejects.toBeInstanceOf(WebhookBodyTooLarge);
  });
});
