import { spawnSync } from "node:child_process";
import * as path from "node:path";
import {
  ConformanceError,
  ConformanceHarness,
  checkActions,
  checkConnect,
  checkDefinition,
  checkDisconnect,
  checkInbound,
  checkSend,
  checkStatus,
  checkTest,
  checkUnsupported,
  runChannelConformance,
  startHarness,
} from "./index";
import { createLoopbackChannel, LoopbackFaults, LoopbackOptions, loopbackDriver } from "./loopback";
import { CHANNEL_CAPABILITIES } from "../channel-contract";

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
      ["disconnect reports a disconnected status", ...["delete", "edit", "media", "reaction", "template"].map((k) => `send ${k} (not declared) throws ERR_CHANNEL_UNSUPPORTED`)].sort(),
    );
    expect(results.filter((r) => r.status === "passed").length).toBe(results.length - failed.length);
    expect(run.status).toBe(1);
  }, 120_000);
});
