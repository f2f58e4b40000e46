/**
 * @openatende/plugin-sdk — everything a plugin imports. Plugins never import core
 * internals: what a plugin needs from the core is part of this contract.
 */
export * from "./channel-contract";
export * from "./manifest";
export * from "./define-plugin";
export * from "./helpers";
export * from "./host-contract";
export * from "./plugin-context";
export * from "./media-transfer";
export * from "./conformance";
export * from "./archive";
export * from "./data";
export * from "./action-options";
export * from "./rate-limit";
