import { ServiceBroker, Errors, Context } from "moleculer";
import { CORE_CHANNEL_ACTIONS, ERR_CHANNEL_UNSUPPORTED, InboundMessage } from "./channel-contract";
import { ack, call, callChannel, changeMessage, channelActionParams, ChannelUnsupportedError, checkOutbound, coreChannelParams, emit, inbound, reportStatus, resolveToken, updateContact } from "./helpers";

/** A broker with a recording "channels" core and a "plugins" stub; answers what was called with what. */
function recordingBroker() {
  const calls: Array<{ action: string; params: unknown }> = [];
  const events: Array<{ event: string; payload: unknown }> = [];
  const broker = new ServiceBroker({ logger: false });
  const rec = (name: string, params?: Record<string, any>, result: unknown = { ok: true }) => ({
    params,
    handler(ctx: Context) {
      calls.push({ action: name, params: ctx.params });
      return result;
    },
  });
  broker.createService({
    name: "channels",
    actions: {
      inbound: rec("channels.inbound", coreChannelParams.inbound, { messageId: 1, ticketId: 2, duplicate: false }),
      ack: rec("channels.ack", coreChannelParams.ack),
      status: rec("channels.status", coreChannelParams.status),
      change: rec("channels.change", coreChannelParams.change, { applied: true }),
      contact: rec("channels.contact", coreChannelParams.contact, { applied: true, contactId: 4, merged: true }),
      resolveToken: rec("channels.resolveToken", { token: "string" }, { tenantId: 1, connectionId: 2, name: "Site", status: "connected", settings: {} }),
    },
  });
  broker.createService({
    name: "plugins",
    actions: { isEnabled: rec("plugins.isEnabled", undefined, true) },
    events: {
      "plugins.changed"(ctx: Context) {
        events.push({ event: ctx.eventName!, payload: ctx.params });
      },
    },
  });
  broker.createService({
    name: "channel-x",
    version: 3,
    actions: { send: rec("v3.channel-x.send", channelActionParams.send, { providerMessageId: "p1", timestamp: 1 }) },
  });
  return { broker, calls, events };
}

const msg: InboundMessage = { tenantId: 1, connectionId: 2, providerMessageId: "wamid.1", timestamp: 1_700_000_000_000, from: { externalId: "5511999990000", name: "Ana" }, body: "oi" };

describe("channel → core helpers", () => {
  const r = recordingBroker();
  beforeAll(() => r.broker.start());
  afterAll(() => r.broker.stop());
  beforeEach(() => {
    r.calls.length = 0;
  });

  it("inbound calls channels.inbound with the message and answers the core's result", async () => {
    expect(CORE_CHANNEL_ACTIONS.inbound).toBe("channels.inbound");
    expect(await inbound(r.broker, msg)).toEqual({ messageId: 1, ticketId: 2, duplicate: false });
    expect(r.calls).toEqual([{ action: "channels.inbound", params: msg }]);
  });

  it("ack and reportStatus call channels.ack and channels.status", async () => {
    await ack(r.broker, { tenantId: 1, connectionId: 2, providerMessageId: "p1", status: "read" });
    await reportStatus(r.broker, { tenantId: 1, connectionId: 2, status: "qrcode", qrcode: "2@abc" });
    expect(r.calls).toEqual([
      { action: "channels.ack", params: { tenantId: 1, connectionId: 2, providerMessageId: "p1", status: "read" } },
      { action: "channels.status", params: { tenantId: 1, connectionId: 2, status: "qrcode", qrcode: "2@abc" } },
    ]);
  });

  it("resolveToken calls channels.resolveToken with the token", async () => {
    expect(await resolveToken(r.broker, "tok-123")).toEqual({ tenantId: 1, connectionId: 2, name: "Site", status: "connected", settings: {} });
    expect(r.calls).toEqual([{ action: "channels.resolveToken", params: { token: "tok-123" } }]);
  });

  it("works from inside an action, with the action's context", async () => {
    const b = new ServiceBroker({ logger: false });
    const seen: unknown[] = [];
    b.createService({ name: "channels", actions: { status: (ctx: Context) => seen.push(ctx.params) } });
    b.createService({ name: "chan", actions: { go: (ctx: Context) => reportStatus(ctx, { tenantId: 5, connectionId: 6, status: "connected" }) } });
    await b.start();
    await b.call("chan.go");
    await b.stop();
    expect(seen).toEqual([{ tenantId: 5, connectionId: 6, status: "connected" }]);
  });

  it("contract 1.1: phone-sent, group and imported messages, played and group acks pass the core's params as they are", async () => {
    const rich: InboundMessage = { ...msg, isGroup: true, fromMe: true, participant: { externalId: "5511977776666", name: "Bia", phone: "5511977776666" }, imported: { closeTicket: true } };
    await inbound(r.broker, rich);
    await ack(r.broker, { tenantId: 1, connectionId: 2, providerMessageId: "p1", status: "played", participant: "5511977776666" });
    expect(r.calls).toEqual([
      { action: "channels.inbound", params: rich },
      { action: "channels.ack", params: { tenantId: 1, connectionId: 2, providerMessageId: "p1", status: "played", participant: "5511977776666" } },
    ]);
    const bad = await inbound(r.broker, { ...msg, participant: { externalId: "" } }).catch((e) => e);
    expect(bad.data[0].field).toBe("participant.externalId");
  });

  it("changeMessage and updateContact call channels.change and channels.contact and answer the core's result", async () => {
    expect(CORE_CHANNEL_ACTIONS.change).toBe("channels.change");
    expect(CORE_CHANNEL_ACTIONS.contact).toBe("channels.contact");
    const change = { tenantId: 1, connectionId: 2, providerMessageId: "wamid.1", change: { type: "reaction", emoji: "", by: "5511977776666" } } as const;
    expect(await changeMessage(r.broker, change)).toEqual({ applied: true });
    const contact = { tenantId: 1, connectionId: 2, externalId: "5511977776666@s.whatsapp.net", previousExternalId: "99887766@lid", avatarUrl: null, validated: true };
    expect(await updateContact(r.broker, contact)).toEqual({ applied: true, contactId: 4, merged: true });
    expect(r.calls).toEqual([
      { action: "channels.change", params: change },
      { action: "channels.contact", params: contact },
    ]);
    const bad = (await changeMessage(r.broker, { tenantId: 1, connectionId: 2, providerMessageId: "wamid.1", change: { type: "pin" } as never }).catch((e) => e)) as Errors.ValidationError;
    expect(bad.data[0].field).toBe("change.type");
  });

  it("the core's params refuse a malformed inbound message, naming the field", async () => {
    const err = await inbound(r.broker, { ...msg, from: { externalId: "" } }).catch((e) => e);
    expect(err).toBeInstanceOf(Errors.ValidationError);
    expect(err.data[0].field).toBe("from.externalId");
  });

  it("call, emit and callChannel are the broker's call/emit, typed", async () => {
    expect(await call(r.broker, "plugins.isEnabled", { tenantId: 1, id: "channel-x" })).toBe(true);
    await emit(r.broker, "plugins.changed", { tenantId: 1, id: "channel-x", enabled: false });
    const sent = await callChannel(r.broker, "v3.channel-x", "send", { tenantId: 1, connectionId: 2, to: { externalId: "a" }, message: { kind: "text", body: "x" } });
    expect(sent).toEqual({ providerMessageId: "p1", timestamp: 1 });
    expect(r.calls.map((c) => c.action)).toEqual(["plugins.isEnabled", "v3.channel-x.send"]);
    await new Promise((res) => setTimeout(res, 10));
    expect(r.events).toEqual([{ event: "plugins.changed", payload: { tenantId: 1, id: "channel-x", enabled: false } }]);
  });

  it("channelActionParams.send refuses an unknown message kind and a missing recipient", async () => {
    const e1 = (await r.broker.call("v3.channel-x.send", { tenantId: 1, connectionId: 2, to: { externalId: "a" }, message: { kind: "poll" } }).catch((e) => e)) as Errors.ValidationError;
    expect(e1.type).toBe("VALIDATION_ERROR");
    expect(e1.data[0].field).toBe("message.kind");
    const e2 = (await r.broker.call("v3.channel-x.send", { tenantId: 1, connectionId: 2, message: { kind: "text", body: "x" } }).catch((e) => e)) as Errors.ValidationError;
    expect(e2.data[0].field).toBe("to");
  });
});

describe("ChannelUnsupportedError and checkOutbound", () => {
  it("is a Moleculer client error with type ERR_CHANNEL_UNSUPPORTED and code 400", () => {
    const e = new ChannelUnsupportedError("reaction", { supported: ["text"] });
    expect(e).toBeInstanceOf(Errors.MoleculerClientError);
    expect({ type: e.type, code: e.code, data: e.data, name: e.name }).toEqual({ type: ERR_CHANNEL_UNSUPPORTED, code: 400, data: { kind: "reaction", supported: ["text"] }, name: "ChannelUnsupportedError" });
  });

  it("throws for a kind outside the capabilities, and names a missing field of a supported kind", () => {
    expect(() => checkOutbound(["text"], { kind: "text", body: "hi" })).not.toThrow();
    expect(() => checkOutbound(["text"], { kind: "delete", targetProviderId: "x" })).toThrow(ChannelUnsupportedError);
    let err: Errors.ValidationError | undefined;
    try {
      checkOutbound(["text", "reaction"], { kind: "reaction", targetProviderId: "x" } as never);
    } catch (e) {
      err = e as Errors.ValidationError;
    }
    expect(err).toBeInstanceOf(Errors.ValidationError);
    expect(err!.data).toEqual([expect.objectContaining({ field: "message.emoji", type: "required" })]);
  });

  it("a sticker is a WebP sent only by channels that declare stickers", () => {
    const sticker = { kind: "sticker", media: { path: "tenants/1/s.webp", mimeType: "image/webp" } } as const;
    expect(() => checkOutbound(["text", "sticker"], sticker)).not.toThrow();
    expect(() => checkOutbound(["text", "sticker"], { ...sticker, media: { ...sticker.media, mimeType: "IMAGE/WEBP; q=1" } })).not.toThrow();
    // A channel that does not declare it refuses it as any other kind, before looking at the file.
    expect(() => checkOutbound(["text", "media"], sticker)).toThrow(expect.objectContaining({ type: ERR_CHANNEL_UNSUPPORTED, code: 400, data: { kind: "sticker", supported: ["text", "media"] } }));
    const refused = (m: unknown) => {
      try {
        checkOutbound(["sticker"], m as never);
      } catch (e) {
        return e as Errors.ValidationError;
      }
      return undefined;
    };
    expect(refused({ kind: "sticker" })!.data).toEqual([expect.objectContaining({ field: "message.media", type: "required" })]);
    expect(refused({ kind: "sticker", media: { url: "https://x/s.png", mimeType: "image/png" } })!.data).toEqual([
      expect.objectContaining({ field: "message.media.mimeType", expected: "image/webp", actual: "image/png" }),
    ]);
  });

  it("crosses the broker with its type and code intact", async () => {
    const b = new ServiceBroker({ logger: false });
    b.createService({ name: "c", actions: { send: () => checkOutbound(["text"], { kind: "media", media: { mimeType: "image/png" } }) } });
    await b.start();
    const err = (await b.call("c.send").catch((e) => e)) as Errors.MoleculerError;
    await b.stop();
    expect({ type: err.type, code: err.code }).toEqual({ type: ERR_CHANNEL_UNSUPPORTED, code: 400 });
  });
});
