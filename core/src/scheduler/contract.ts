/**
 * The scheduler's actions: the one scheduler for everything that fires at a time. The types
 * are the SDK's (plugins schedule through pluginJobs), merged into the core's bus here.
 *
 *   scheduler.schedule { owner, name, key, tenantId, runAt | delayMs | every, data?, attempts?, backoffMs?, service? }
 *   scheduler.cancel   { owner, tenantId, name, key }
 *   scheduler.list     { owner, tenantId, name? }
 *
 * Core handlers register with jobHandlers(broker) (./index.ts); see ./scheduler.service.ts.
 */
export type {
  SchedulerActions,
  ScheduleJobParams,
  ScheduleJobResult,
  CancelJobParams,
  CancelJobResult,
  ListJobsParams,
  ScheduledJob,
  JobDelivery,
  JobRecurrence,
} from "@openatende/plugin-sdk";
