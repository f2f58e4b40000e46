/**
 * The webhook's checks without a core: the handshake, the signature over the exact bytes
 * (constant-time, any header shape refused but Meta's), the envelope flattened into changes.
 */
import { createHmac } from "node:crypto";
import { hmacSignatureValid as signatureValid, sameSecret } from "@openatende/plugin-sdk";
import { parseEnvelope, phoneNumberIdOf, verificationAnswer } from "./webhook";

const SECRET = "0123456789abcdef0123456789abcdef";
const sign = (body: string, secret = SECRET) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

describe("WABA webhook checks", () => {
  it("answers the handshake's challenge only for mode subscribe and the right token", () => {
    expect(verificationAnswer({ "hub.mode": "subscribe", "hub.verify_token": "tok-12345678", "hub.challenge": "987" }, "tok-12345678")).toBe("987");
    expect(verificationAnswer({ hub: { mode: "subscribe", verify_token: "tok-12345678", challenge: "42" } }, "tok-12345678")).toBe("42");
    expect(verificationAnswer({ "hub.mode": "subscribe", "hub.verify_token": "tok-1234567", "hub.challenge": "987" }, "tok-12345678")).toBeNull();
    expect(verificationAnswer({ "hub.mode": "unsubscribe", "hub.verify_token": "tok-12345678", "hub.challenge": "987" }, "tok-12345678")).toBeNull();
    expect(verificationAnswer({ "hub.mode": "subscribe", "hub.challenge": "987" }, "tok-12345678")).toBeNull();
    expect(verificationAnswer({ "hub.mode": "subscribe", "hub.verify_token": "tok-12345678" }, "tok-12345678")).toBeNull();
    expect(sameSecret("a", "a")).toBe(true);
    expect(sameSecret("a", "ab")).toBe(false);
  });

  it("accepts Meta's signature of the raw bytes and nothing else", () => {
    const body = '{"object":"whatsapp_business_account","entry":[{"changes":[{"value":{"t":"P\\u00e3o \\/ ok"}}]}]}';
    const bytes = Buffer.from(body);
    expect(signatureValid(bytes, SECRET, sign(body))).toBe(true);
    expect(signatureValid(bytes, SECRET, sign(body).toUpperCase().replace("SHA256=", "sha256="))).toBe(true);
    expect(signatureValid(bytes, SECRET, sign(body, `${SECRET}x`))).toBe(false);
    expect(signatureValid(Buffer.from(body.replace("ok", "ko")), SECRET, sign(body))).toBe(false);
    // The same JSON re-serialised is other bytes.
    expect(signatureValid(Buffer.from(JSON.stringify(JSON.parse(body))), SECRET, sign(body))).toBe(false);
    for (const h of [undefined, "", "sha1=abc", sign(body).slice(7), `${sign(body)}00`, "sha256=zz"]) expect(signatureValid(bytes, SECRET, h)).toBe(false);
  });

  it("flattens every entry's changes and names each one's phone number id", () => {
    const env = {
      object: "whatsapp_business_account",
      entry: [
        { id: "1", changes: [{ field: "messages", value: { metadata: { phone_number_id: "111" } } }, { field: "messages", value: { metadata: { phone_number_id: 222 } } }] },
        { id: "2", changes: [{ field: "account_update", value: { event: "X" } }, { field: "messages" }] },
        { id: "3" },
      ],
    };
    const changes = parseEnvelope(Buffer.from(JSON.stringify(env)));
    expect(changes.map((c) => [c.wabaId, c.field, phoneNumberIdOf(c)])).toEqual([
      ["1", "messages", "111"],
      ["1", "messages", "222"],
      ["2", "account_update", null],
    ]);
    expect(() => parseEnvelope(Buffer.from("not json"))).toThrow(expect.objectContaining({ code: "PAYLOAD_INVALID", status: 400 }));
    expect(() => parseEnvelope(Buffer.from('{"object":"instagram","entry":[]}'))).toThrow(expect.objectContaining({ code: "PAYLOAD_INVALID" }));
  });
});
