import { ComteleProvider, sameSecret } from "./comtele";
import { timeOf } from "./http";
import { DeliveryFormatError, type WebhookDelivery } from "./provider";

const provider = new ComteleProvider({ token: "T".repeat(36), policy: {} });
const delivery = (event: WebhookDelivery["event"], body: unknown, contentType = "application/json"): WebhookDelivery => ({
  event,
  body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
  headers: { "content-type": contentType },
  pathSecret: "",
  url: "",
});

describe("Comtele callbacks", () => {
  it("reads delivery reports as acks: SMPP stats to statuses, the reason of a failure, one or many, any casing", () => {
    const reports = provider.parseDeliveryReports(
      delivery("status", [
        { RequestUniqueId: "a1", DlrStatus: "DELIVRD", DeliveryDate: "2026-11-24T10:00:00Z" },
        { requestUniqueId: "a2", dlrStatus: "undeliv", systemMessage: "Número desativado" },
        { RequestUniqueId: "a3", DlrStatus: "EXPIRED" },
        { RequestUniqueId: "a4", DlrStatus: "ENROUTE" },
        { RequestUniqueId: "a5", DlrStatus: "", Status: "Entregue" },
        { RequestUniqueId: "a6", DlrStatus: "WHATEVER" },
        { DlrStatus: "DELIVRD" },
      ]),
    );
    expect(reports).toEqual([
      { providerMessageId: "a1", status: "delivered", timestamp: Date.parse("2026-11-24T10:00:00Z") },
      { providerMessageId: "a2", status: "failed", reason: "Número desativado" },
      { providerMessageId: "a3", status: "failed", reason: "EXPIRED" },
      { providerMessageId: "a4", status: "sent" },
      { providerMessageId: "a5", status: "delivered" },
    ]);
    // A form-encoded report reads the same.
    expect(provider.parseDeliveryReports(delivery("status", "RequestUniqueId=b1&DlrStatus=DELIVRD", "application/x-www-form-urlencoded"))).toEqual([{ providerMessageId: "b1", status: "delivered" }]);
  });

  it("reads a customer's reply, with a stable id for the same reply posted again", () => {
    const reply = { Sender: "+55 11 97777-6666", SenderName: "Carla", ReceivedContent: "Oi", ReceivedDate: "2026-11-24 10:00:00", RequestUniqueId: "a1" };
    const [m] = provider.parseInbound(delivery("inbound", reply));
    expect(m).toMatchObject({ from: "5511977776666", name: "Carla", text: "Oi", replyTo: "a1", timestamp: Date.parse("2026-11-24T10:00:00-03:00") });
    expect(m.providerMessageId).toMatch(/^mo-[0-9a-f]{40}$/);
    expect(provider.parseInbound(delivery("inbound", reply))[0].providerMessageId).toBe(m.providerMessageId);
    expect(provider.parseInbound(delivery("inbound", { ...reply, ReceivedContent: "Oi!" }))[0].providerMessageId).not.toBe(m.providerMessageId);
    expect(() => provider.parseInbound(delivery("inbound", { Sender: "5511977776666" }))).toThrow(DeliveryFormatError);
    expect(() => provider.parseInbound(delivery("inbound", "not json"))).toThrow(DeliveryFormatError);
    expect(() => provider.parseInbound(delivery("inbound", [1, 2]))).toThrow(DeliveryFormatError);
  });

  it("checks the path secret in constant time, whatever the lengths", () => {
    const secret = "s".repeat(40);
    expect(provider.verifyWebhook({ ...delivery("inbound", {}), pathSecret: secret }, secret)).toBe(true);
    expect(provider.verifyWebhook({ ...delivery("inbound", {}), pathSecret: `${secret}x` }, secret)).toBe(false);
    expect(provider.verifyWebhook({ ...delivery("inbound", {}), pathSecret: "" }, secret)).toBe(false);
    expect(sameSecret("a", "b")).toBe(false);
  });

  it("reads the providers' dates: ms, seconds, zoned texts, and Brasília time when no zone is said", () => {
    expect(timeOf(1_764_000_000)).toBe(1_764_000_000_000);
    expect(timeOf(1_764_000_000_000)).toBe(1_764_000_000_000);
    expect(timeOf("1764000000")).toBe(1_764_000_000_000);
    expect(timeOf("2026-11-24T10:00:00Z")).toBe(Date.parse("2026-11-24T10:00:00Z"));
    expect(timeOf("2026-11-24 10:00:00")).toBe(Date.parse("2026-11-24T13:00:00Z"));
    expect(timeOf("soon")).toBeUndefined();
    expect(timeOf(undefined)).toBeUndefined();
  });
});
