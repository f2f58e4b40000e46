import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

/**
 * The runtime register() received, for the pages it registers: a route's page is a component
 * without props (UiRoute.load), so it reads the runtime from here.
 */
let current: ShellRuntime | null = null;

export function setRuntime(rt: ShellRuntime): void {
  current = rt;
}

export function useRuntime(): ShellRuntime {
  if (!current) throw new Error("module-internal-chat: register() has not run");
  return current;
}
