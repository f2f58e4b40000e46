import type { Middleware, Service, ActionHandler, Context } from "moleculer";
import { Errors } from "moleculer";

interface Pending {
  deadline: number;
  reject(err: Error): void;
  action: string;
  nodeID?: string;
}

/**
 * Timeout of calls to other nodes, with one clock for all of them. Moleculer's own timeout
 * arms a timer per call, which cost a quarter of the gateway's throughput on a no-op action;
 * here a call only joins a set, and one interval rejects the calls past their deadline
 * (resolution `tickMs`). Local calls are bounded by the gateway's request deadline instead
 * (api.service), so the embedded mode pays nothing per call.
 */
export function createTimeoutMiddleware(defaultTimeoutMs: number, tickMs = 250): Middleware {
  const pending = new Set<Pending>();
  let timer: NodeJS.Timeout | undefined;

  function sweep() {
    const now = Date.now();
    for (const p of pending) {
      if (p.deadline <= now) {
        pending.delete(p);
        p.reject(new Errors.RequestTimeoutError({ action: p.action, nodeID: p.nodeID }));
      }
    }
  }

  function wrap(next: ActionHandler): ActionHandler {
    return function coarseTimeout(this: Service, ctx: Context) {
      const ms = (ctx.options?.timeout as number | undefined) || defaultTimeoutMs;
      if (!ms || ms <= 0) return next.call(this, ctx);
      return new Promise((resolve, reject) => {
        const entry: Pending = { deadline: Date.now() + ms, reject, action: ctx.action?.name ?? "?", nodeID: ctx.nodeID ?? undefined };
        pending.add(entry);
        (next.call(this, ctx) as Promise<unknown>).then(
          (res) => {
            pending.delete(entry);
            resolve(res);
          },
          (err) => {
            pending.delete(entry);
            reject(err);
          },
        );
      });
    };
  }

  return {
    name: "CoarseTimeout",
    started() {
      timer = setInterval(sweep, tickMs);
      timer.unref();
    },
    stopped() {
      if (timer) clearInterval(timer);
    },
    remoteAction(next: ActionHandler) {
      return wrap(next);
    },
  } as unknown as Middleware;
}
