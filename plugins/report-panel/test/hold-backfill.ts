/**
 * Holds the panel's next backfill after its first page (told as 2 rows of 8: 25 %) until the
 * test opens the gate, so a test sees the "rebuilding" state as long as it needs, with no sleep.
 * The plugin's service keeps its projection on `this.projection`: it is swapped for one reading
 * the same database through a source that waits at the gate (and passes through once open).
 */
import type { CoreApi, PluginData } from "@openatende/plugin-sdk";
import { Projection, type ProjectionSource } from "@openatende/report-kit";
import { liveTicketsSource } from "../src/projection";
import { CODE_PREFIX } from "../src/service";

export function holdPanelBackfill(service: unknown): { open(): void } {
  const svc = service as { projection: Projection };
  const inner = svc.projection as unknown as { data: PluginData; api: () => CoreApi; opts: { now: () => number } };
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const held: ProjectionSource = {
    name: liveTicketsSource.name,
    clear: (tenant) => liveTicketsSource.clear(tenant),
    async backfill(run) {
      await run.progress(0, { seen: 2, expected: 8 });
      await gate;
      return liveTicketsSource.backfill(run);
    },
  };
  // Once open, the held source is the plugin's own: later backfills pass straight through.
  svc.projection = new Projection(inner.data, held, inner.api, { codePrefix: CODE_PREFIX, now: inner.opts.now, waitMs: 500 });
  return { open };
}
