import { useEffect, useState } from "react";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { listQueues, listUsers, type Named } from "./api";

export interface Targets {
  queues: Array<Named & { active: boolean }>;
  users: Named[];
  loading: boolean;
}

/** The tenant's queues and users (the core's), for the hand-off and action selects. */
export function useTargets(runtime: ShellRuntime): Targets {
  const [state, setState] = useState<Targets>({ queues: [], users: [], loading: true });
  useEffect(() => {
    let live = true;
    Promise.all([listQueues(runtime.api), listUsers(runtime.api)]).then(
      ([queues, users]) => live && setState({ queues, users, loading: false }),
      (err) => {
        if (!live) return;
        setState((s) => ({ ...s, loading: false }));
        runtime.notify.error(err);
      },
    );
    return () => {
      live = false;
    };
  }, [runtime]);
  return state;
}

/** Select options of named things; an inactive queue is shown but cannot be chosen again. */
export const optionsOf = (xs: Array<Named & { active?: boolean }>) => xs.map((x) => ({ value: x.id, label: x.name, disabled: x.active === false }));
