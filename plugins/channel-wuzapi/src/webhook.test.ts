import { Readable } from "node:stream";
import { createHmac } from "node:crypto";
import { DeliveryError, parseDelivery, readBody, signatureValid } from "./webhook";

const KEY = "k".repeat(32);
const sign = (b: string | Buffer) => createHmac("sha256", KEY).update(b).digest("hex");

describe("wuzapi deliveries", () => {
  it("the signature is the hex HMAC-SHA256 of the exact bytes (upper or lower case, sha256= tolerated)", () => {
    const body = Buffer.from('{"type":"Message","x":"\\u003c"}');
    expect(signatureValid(body, KEY, sign(body))).toBe(true);
    expect(signatureValid(body, KEY, sign(body).toUpperCase())).toBe(true);
    expect(signatureValid(body, KEY, `sha256=${sign(body)}`)).toBe(true);
    expect(signatureValid(Buffer.from('{"type":"Message","x":"<"}'), KEY, sign(body))).toBe(false);
    expect(signatureValid(body, KEY, undefined)).toBe(false);
    expect(signatureValid(body, KEY, "zz")).toBe(false);
    expect(signatureValid(body, `${KEY}x`, sign(body))).toBe(false);
  });

  it("reads JSON and form deliveries by their content type; refuses multipart, bad JSON and events without a type", () => {
    expect(parseDelivery(Buffer.from('{"type":"QR","qrCodeBase64":"data:x"}'), "application/json; charset=utf-8")).toEqual({ event: { type: "QR", qrCodeBase64: "data:x" }, format: "json" });
    const form = `instanceName=loja&jsonData=${encodeURIComponent('{"type":"Message","event":{"Info":{"ID":"1"}}}')}&userID=3`;
    expect(parseDelivery(Buffer.from(form), "application/x-www-form-urlencoded")).toEqual({ event: { type: "Message", event: { Info: { ID: "1" } } }, format: "form" });
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as DeliveryError).code;
      }
      return null;
    };
    expect(code(() => parseDelivery(Buffer.from("x"), "multipart/form-data; boundary=a"))).toBe("ERR_UNSUPPORTED_MEDIA_TYPE");
    expect(code(() => parseDelivery(Buffer.from("{nope"), "application/json"))).toBe("ERR_INVALID_JSON");
    expect(code(() => parseDelivery(Buffer.from('{"event":{}}'), "application/json"))).toBe("ERR_VALIDATION");
    expect(code(() => parseDelivery(Buffer.from("userID=3"), "application/x-www-form-urlencoded"))).toBe("ERR_VALIDATION");
  });

  it("reads a body up to its limit, and drains (without keeping) what is over it", async () => {
    expect((await readBody(Readable.from([Buffer.from("ab"), "cd"]))).toString()).toBe("abcd");
    const stream = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(readBody(stream, 1000)).rejects.toMatchObject({ code: "ERR_PAYLOAD_TOO_LARGE", status: 413 });
    expect(stream.readableEnded).toBe(true);
    expect((await readBody(null)).length).toBe(0);
  });
});
