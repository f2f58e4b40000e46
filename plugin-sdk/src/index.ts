/**
 * @openatende/plugin-sdk — everything a plugin imports. Plugins never import core
 * internals: what a plugin needs from the core is part of this contract.
 */
export * from "./channel-contract";
export * from "./chatbot-contract";
export * from "./hooks-contract";
export * from "./campaign-contract";
export * from "./conformance/campaign";
export * from "./report-contract";
export * from "./conformance/report";
export * from "./manifest";
export * from "./define-plugin";
export * from "./helpers";
export * from "./contract-actions";
export * from "./host-contract";
export * from "./plugin-context";
export * from "./media-transfer";
export * from "./conformance";
export * from "./archive";
export * from "./data";
export * from "./action-options";
export * from "./rate-limit";
export * from "./jobs";
export * from "./core-api";
export * from "./platform-files";
export * from "./plugin-error";
export * from "./url-policy";
export * from "./url-policy-fetch";
export * from "./url-policy-agent";
export * from "./webhook-security";
export * from "./sent-once";
export { smsNumber, smsParts } from "./sms-text";
