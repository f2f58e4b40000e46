import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

/** The runtime register() received, for the page (a route's component takes no props). */
let current: ShellRuntime | null = null;
export const setRuntime = (rt: ShellRuntime) => void (current = rt);
export function useRuntime(): ShellRuntime {
  if (!current) throw new Error("report-panel: register() has not run");
  return current;
}
