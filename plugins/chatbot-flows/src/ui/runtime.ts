import type { ShellRuntime } from "@openatende/plugin-sdk/ui";

/**
 * The runtime register() received, for the pages it registers: a route's or a settings
 * section's page is a component without props (UiRoute.load), so it reads the runtime here.
 */
let current: ShellRuntime | null = null;

export function setRuntime(rt: ShellRuntime): void {
  current = rt;
}

export function useRuntime(): ShellRuntime {
  if (!current) throw new Error("chatbot-flows: register() has not run");
  return current;
}
