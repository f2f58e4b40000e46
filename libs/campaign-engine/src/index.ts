/**
 * @openatende/campaign-engine — the campaign engine every campaign type (normal, WABA
 * template, SMS) builds on; the kind's contract is the SDK's campaign-contract.ts.
 */
export * from "./errors";
export * from "./rules";
export * from "./pacing";
export * from "./csv";
export * from "./schema";
export * from "./store";
export * from "./dispatch";
export * from "./contacts";
export * from "./service";
export * from "./media";
