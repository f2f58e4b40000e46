import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

/** The runtime register() received, for the page (a route's page is a component without props). */
let current: ShellRuntime | null = null;

export function setRuntime(rt: ShellRuntime): void {
  current = rt;
}

export function useRuntime(): ShellRuntime {
  if (!current) throw new Error("report-birthdays: register() has not run");
  return current;
}
