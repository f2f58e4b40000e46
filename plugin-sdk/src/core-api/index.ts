export * from "./contract";
export * from "./keyset";
export * from "./client";
