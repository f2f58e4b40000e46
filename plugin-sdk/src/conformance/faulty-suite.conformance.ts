/**
 * Not a test of its own (the name does not match jest's testMatch): conformance.test.ts runs
 * it in a child jest process and expects exactly the checks this loopback breaks to fail.
 */
import { runChannelConformance } from "./index";
import { createLoopbackChannel, loopbackDriver } from "./loopback";

const plugin = createLoopbackChannel({ capabilities: ["text"], faults: { acceptUndeclared: true, silentDisconnect: true } });
runChannelConformance({ plugin, settings: { token: "t" }, driver: loopbackDriver(plugin), timeoutMs: 300 });
