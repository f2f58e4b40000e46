import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

/** The runtime register() received, for the pages (a route's component takes no props). */
let current: ShellRuntime | null = null;
export const setRuntime = (rt: ShellRuntime) => void (current = rt);
export function useRuntime(): ShellRuntime {
  if (!current) throw new Error("module-closure-questionnaires: register() has not run");
  return current;
}
