/**
 * @openatende/report-kit — what every report plugin shares, written once: its projection
 * (backfilled through the core API, kept by core events, rebuildable), the report period, the
 * SLA classes of the general settings, pt-BR figures, and the streamed Excel and PDF exports.
 */
export * from "./batched-read";
export * from "./errors";
export * from "./export-common";
export * from "./export-pdf";
export * from "./export-xlsx";
export * from "./format";
export * from "./period";
export * from "./projection";
export * from "./sla";
export * from "./keyset-pages";
