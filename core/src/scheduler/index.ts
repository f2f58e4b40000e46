/** The scheduler's public face for other domains: register a core job handler; the actions are in ./contract.ts. */
export { jobHandlers, JobHandlers, type CoreJobHandler } from "./registry";
export { schedulerOf } from "./scheduler.service";
export { STUCK_AFTER_MS } from "./owner-queues";
