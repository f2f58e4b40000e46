import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ServiceBroker } from "moleculer";
import {
  ConformanceError,
  ConformanceHarness,
  checkActions,
  checkChange,
  checkConnect,
  checkContact,
  checkedChanges,
  checkDefinition,
  checkDisconnect,
  checkInbound,
  checkSend,
  checkStatus,
  checkTest,
  checkUnsupported,
  runChannelConformance,
  createFakeCore,
  startHarness,
} from "./index";
import { createLoopbackChannel, LoopbackFaults, LoopbackOptions, loopbackDriver } from "./loopback";
import { CHANNEL_CAPABILITIES, CORE_CHANNEL_ACTIONS } from "../channel-contract";
import { ack, changeMessage, inbound, updateContact } from "../helpers";

// The kit passes a plugin that honours the contract: every capability declared…
const full = createLoopbackChannel({ id: "channel-loopback-full", capabilities: [...CHANNEL_CAPABILITIES] });
runChannelConformance({ plugin: full, settings: { token: "t" }, driver: loopbackDriver(full) });

// …and one that declares only some, so the ERR_CHANNEL_UNSUPPORTED checks run too.
const some = createLoopbackChannel({ capabilities: ["text", "reaction"] });
runChannelConformance({ plugin: some, settings: { token: "t" }, driver: loopbackDriver(some), ref: { tenantId: 3, connectionId: 44 } });

/** Starts a harness for a loopback with `faults` and runs `steps` in order; answers the first failure. */
async function firstFailure(faults: LoopbackFaults, steps: Array<(h: ConformanceHarness) => Promise<void> | void>, capabilities: LoopbackOptions["capabilities"] = ["text"]) {
  const plugin = createLoopbackChannel({ capabilities, faults });
  const h = await startHarness({ plugin, settings: { token: "t" }, driver: loopbackDriver(plugin), timeoutMs: 200 });
  try {
    for (const step of steps) await step(h);
    return null;
  } catch (err) {
    return err as Error;
  } finally {
    await h.stop();
  }
}

describe("the conformance kit fails plugins that break the contract", () => {
  it("an action without params", async () => {
    const err = await firstFailure({ noParamsOn: "status" }, [checkActions]);
    expect(err).toBeInstanceOf(ConformanceError);
    expect(err!.message).toBe("action status declares no params (use channelActionParams.status)");
  });

  it("an optional action the manifest declares but the service lacks (templates → templatesList)", async () => {
    const plugin = createLoopbackChannel({ capabilities: ["text", "template"], channelFlags: { templates: true } });
    const h = await startHarness({ plugin, settings: { token: "t" }, driver: loopbackDriver(plugin), timeoutMs: 200 });
    try {
      await expect(checkActions(h)).rejects.toThrow("action templatesList is missing (the manifest declares platform.channel.templates)");
    } finally {
      await h.stop();
    }
  });

  it("send without params validation", async () => {
    const err = await firstFailure({ noParamsOn: "send" }, [checkActions]);
    expect(err!.message).toMatch(/^action send declares no params/);
  });

  it("connect that does not report its status", async () => {
    const err = await firstFailure({ silentConnect: true }, [checkConnect]);
    expect(err).toBeInstanceOf(ConformanceError);
    expect(err!.message).toMatch(/^timed out after 200 ms waiting for a channels\.status report with status "connected"/);
  });

  it("a send timestamp in seconds", async () => {
    const err = await firstFailure({ secondsTimestamp: true }, [checkConnect, (h) => checkSend(h, "text")]);
    expect(err!.message).toMatch(/^send text must answer timestamp in ms since the epoch; got \d{10}$/);
  });

  it("an undeclared kind that is sent anyway", async () => {
    const err = await firstFailure({ acceptUndeclared: true }, [checkConnect, (h) => checkSend(h, "text"), (h) => checkUnsupported(h)]);
    expect(err!.message).toBe("send media is not declared in platform.channel.capabilities but succeeded; it must throw ChannelUnsupportedError");
  });

  it("a replay that gets a new provider id", async () => {
    const err = await firstFailure({ unstableInboundIds: true }, [checkInbound]);
    expect(err!.message).toMatch(/^a replay of the same provider message must carry the same providerMessageId; got "loop-in-conformance-\d+-\d+" then "loop-in-conformance-\d+-\d+"$/);
  });

  it("an inbound message without from.externalId (the fake core refuses it and says why)", async () => {
    const err = await firstFailure({ anonymousInbound: true }, [checkInbound]);
    expect(err!.message).toMatch(/^driver\.triggerInbound failed: \[VALIDATION_ERROR\]/);
  });

  it("a change that names another message than the one changed", async () => {
    const err = await firstFailure({ changeWrongTarget: true }, [(h) => checkChange(h, "edit")], ["text", "edit"]);
    expect(err).toBeInstanceOf(ConformanceError);
    expect(err!.message).toMatch(/^channels\.change must name the changed message by the provider id channels\.inbound got \("loop-in-conformance-edit-\d+"\); got "loop-change-\d+"$/);
  });

  it("a reaction taken away by another reactor than the one who reacted", async () => {
    const err = await firstFailure({ unreactionOtherReactor: true }, [(h) => checkChange(h, "reaction")], ["text", "reaction"]);
    expect(err!.message).toMatch(/^a reaction taken away must be emoji "" by the same reactor \("visitor-conformance-reaction-\d+"\); got \{"type":"reaction","emoji":"","by":"someone-else-/);
  });

  it("a reaction that does not say who reacted (the fake core refuses it)", async () => {
    const err = await firstFailure({ reactionWithoutBy: true }, [(h) => checkChange(h, "reaction")], ["text", "reaction"]);
    expect(err!.message).toMatch(/^driver\.triggerChange \(reaction\) failed: \[VALIDATION_ERROR\]/);
  });

  it("a contact update that names the contact by another id than its messages'", async () => {
    const err = await firstFailure({ contactByName: true }, [checkContact]);
    expect(err!.message).toMatch(/^channels\.contact must name the contact by the externalId its messages come from \("visitor-conformance-contact-\d+"\); got "Loopback visitor"$/);
  });

  it("changes are checked only where the plugin declares them and the driver can make them", async () => {
    const some = createLoopbackChannel({ capabilities: ["text", "delete"] });
    expect(checkedChanges(some, loopbackDriver(some))).toEqual(["delete"]);
    expect(checkedChanges(full, loopbackDriver(full))).toEqual(["reaction", "edit", "delete"]);
    expect(checkedChanges(full, { triggerInbound: loopbackDriver(full).triggerInbound })).toEqual([]);
    const h = await startHarness({ plugin: some, settings: { token: "t" }, driver: { triggerInbound: loopbackDriver(some).triggerInbound } });
    try {
      await expect(checkChange(h, "delete")).rejects.toThrow(new ConformanceError("checkChange needs a driver with triggerChange"));
      await expect(checkContact(h)).rejects.toThrow(new ConformanceError("checkContact needs a driver with triggerContact"));
    } finally {
      await h.stop();
    }
  });

  it("disconnect that does not report disconnected", async () => {
    const err = await firstFailure({ silentDisconnect: true }, [checkConnect, checkDisconnect]);
    expect(err!.message).toMatch(/^timed out after 200 ms waiting for a channels\.status report "disconnected"/);
  });

  it("settings that do not match the settingsSchema, and a plugin that is not a channel", async () => {
    const plugin = createLoopbackChannel();
    expect(() => checkDefinition({ plugin, settings: { token: 5 } })).toThrow(/^the kit's settings do not match the manifest's settingsSchema: The 'token' field must be a string\.$/);
    expect(() => checkDefinition({ plugin: { ...plugin, $$openatendePlugin: 2 } as never, settings: {} })).toThrow("the plugin is not an object made by definePlugin()");
    await expect(startHarness({ plugin: { schema: { name: "x" } } as never, settings: {} })).rejects.toThrow(ConformanceError);
  });

  it("checkInbound without a driver", async () => {
    const h = await startHarness({ plugin: createLoopbackChannel(), settings: { token: "t" } });
    await expect(checkInbound(h)).rejects.toThrow(new ConformanceError("checkInbound needs a driver"));
    await h.stop();
  });

  it("a well-behaved plugin passes the same checks called directly", async () => {
    const err = await firstFailure({}, [checkActions, checkConnect, checkStatus, (h) => checkSend(h, "text"), (h) => checkUnsupported(h), checkTest, checkInbound, checkDisconnect]);
    expect(err).toBeNull();
    const changes = await firstFailure({}, [(h) => checkChange(h, "reaction"), (h) => checkChange(h, "edit"), (h) => checkChange(h, "delete"), checkContact], ["text", "reaction", "edit", "delete"]);
    expect(changes).toBeNull();
  });

  it("the declared jest suite reports exactly the broken checks as failed (child jest run)", () => {
    const root = path.resolve(__dirname, "../../..");
    const preset = require(path.join(root, "config/jest/preset.cjs"));
    const config = { ...preset, rootDir: path.resolve(__dirname), testMatch: ["**/faulty-suite.conformance.ts"] };
    const run = spawnSync(process.execPath, [require.resolve("jest/bin/jest", { paths: [root] }), "--config", JSON.stringify(config), "--json", "--ci"], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
    });
    const report = JSON.parse(run.stdout) as { testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }> };
    const results = report.testResults[0].assertionResults;
    const failed = results.filter((r) => r.status === "failed").map((r) => r.title);
    expect(failed.sort()).toEqual(
      ["disconnect reports a disconnected status", ...["delete", "edit", "media", "reaction", "sticker", "template"].map((k) => `send ${k} (not declared) throws ERR_CHANNEL_UNSUPPORTED`)].sort(),
    );
    expect(results.filter((r) => r.status === "passed").length).toBe(results.length - failed.length);
    expect(run.status).toBe(1);
  }, 120_000);
});

describe("the fake core records what a plugin reports, and refuses what breaks the contract", () => {
  const fake = createFakeCore();
  const broker = new ServiceBroker({ logger: false });
  const ref = { tenantId: 9, connectionId: 3 };
  beforeAll(async () => {
    broker.createService(fake.schema);
    await broker.start();
  });
  afterAll(() => broker.stop());
  beforeEach(() => fake.reset());

  it("records phone-sent, group and imported messages, played and group acks, changes and contact updates", async () => {
    const group = { ...ref, providerMessageId: "g1", timestamp: 1_700_000_000_000, from: { externalId: "120363@g.us", name: "Equipe" }, isGroup: true, participant: { externalId: "5511999990000", name: "Ana" }, body: "oi" };
    expect(await inbound(broker, group)).toEqual({ messageId: 1, ticketId: 1, duplicate: false });
    await inbound(broker, { ...ref, providerMessageId: "m1", timestamp: 1_700_000_000_001, from: { externalId: "5511988887777" }, fromMe: true, imported: { closeTicket: true }, body: "do celular" });
    await ack(broker, { ...ref, providerMessageId: "m1", status: "played", participant: "5511999990000" });
    expect(await changeMessage(broker, { ...ref, providerMessageId: "g1", change: { type: "reaction", emoji: "❤️", by: "5511999990000" } })).toEqual({ applied: true });
    await changeMessage(broker, { ...ref, providerMessageId: "g1", change: { type: "edit", body: "olá" } });
    const phone = await updateContact(broker, { ...ref, externalId: "5511988887777", name: "Bia", avatarUrl: null, validated: true });
    const merged = await updateContact(broker, { ...ref, externalId: "5511988887777", previousExternalId: "1234@lid" });
    expect(merged).toEqual({ applied: true, contactId: phone.contactId, merged: false });
    expect(fake.inbound.map((m) => [m.providerMessageId, !!m.fromMe, m.participant?.name ?? null, m.imported ?? null])).toEqual([
      ["g1", false, "Ana", null],
      ["m1", true, null, { closeTicket: true }],
    ]);
    expect(fake.acks).toEqual([{ ...ref, providerMessageId: "m1", status: "played", participant: "5511999990000" }]);
    expect(fake.changes.map((c) => c.change)).toEqual([{ type: "reaction", emoji: "❤️", by: "5511999990000" }, { type: "edit", body: "olá" }]);
    expect(fake.contacts.map((c) => [c.externalId, c.avatarUrl, c.previousExternalId])).toEqual([
      ["5511988887777", null, undefined],
      ["5511988887777", undefined, "1234@lid"],
    ]);
    expect(fake.invalid).toEqual([]);
  });

  it("refuses, and records as invalid, a participant outside a group, a reaction without its reactor, an edit without body, a contact merged into itself", async () => {
    const calls: Array<[string, unknown]> = [
      [CORE_CHANNEL_ACTIONS.inbound, { ...ref, providerMessageId: "x1", timestamp: 1_700_000_000_000, from: { externalId: "a" }, participant: { externalId: "b" }, body: "x" }],
      [CORE_CHANNEL_ACTIONS.change, { ...ref, providerMessageId: "x1", change: { type: "reaction", emoji: "👍" } }],
      [CORE_CHANNEL_ACTIONS.change, { ...ref, providerMessageId: "x1", change: { type: "edit" } }],
      [CORE_CHANNEL_ACTIONS.contact, { ...ref, externalId: "a", previousExternalId: "a" }],
      [CORE_CHANNEL_ACTIONS.ack, { ...ref, providerMessageId: "x1", status: "heard" }],
    ];
    for (const [action, params] of calls) await expect(broker.call(action, params)).rejects.toMatchObject({ type: "VALIDATION_ERROR" });
    expect(fake.invalid.map((i) => [i.action, i.errors])).toEqual([
      ["inbound", ["participant is only for group messages (isGroup: true, from is the group)"]],
      ["change", ["a reaction change names who reacted (change.by)"]],
      ["change", ["an edit change carries the new body"]],
      ["contact", ["previousExternalId is another id of the contact, not externalId itself"]],
      ["ack", ["The 'status' field value 'sent, delivered, read, played, failed' does not match any of the allowed values."]],
    ]);
    expect([fake.inbound, fake.changes, fake.contacts, fake.acks].map((l) => l.length)).toEqual([0, 0, 0, 0]);
  });
});
