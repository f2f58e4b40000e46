/**
 * openPluginData(this): the plugin's own database, from the address the host put in its
 * platform context. One PluginData per service instance (every call answers the same one),
 * closed when the service stops, after its own `stopped` ran (so `stopped` may still write).
 */
import type { PluginData } from "./contract";
import { SqlPluginData } from "./database";
import { PluginDataError } from "./errors";
import { pluginContext } from "../plugin-context";

type ServiceLike = { settings?: unknown; fullName?: string; name?: string };

const opened = new WeakMap<object, Promise<SqlPluginData>>();

export function openPluginData(service: ServiceLike): Promise<PluginData> {
  const hit = opened.get(service);
  if (hit) {
    return hit.then((data) => {
      if (!data.isClosed) return data;
      opened.delete(service);
      return openPluginData(service);
    });
  }
  let database;
  try {
    database = pluginContext(service).database;
  } catch (err) {
    return Promise.reject(err);
  }
  const who = service.fullName ?? service.name ?? "plugin";
  if (!database) {
    return Promise.reject(
      new PluginDataError("ERR_PLUGIN_DATA_UNAVAILABLE", `${who} has no database of its own: the host gives one to plugins that ship a migrations/ folder (context.database is missing)`),
    );
  }
  const pending = SqlPluginData.open(database);
  opened.set(service, pending);
  pending.catch(() => opened.delete(service));
  closeWithService(service, pending);
  return pending;
}

/** Wraps the instance's _stop (what broker.stop and destroyService call) to close the data after it. */
function closeWithService(service: ServiceLike, pending: Promise<SqlPluginData>): void {
  const svc = service as { _stop?: () => Promise<unknown>; __pluginDataClose?: true };
  if (typeof svc._stop !== "function" || svc.__pluginDataClose) return;
  const stop = svc._stop;
  svc.__pluginDataClose = true;
  svc._stop = async function (this: unknown) {
    try {
      return await stop.call(service);
    } finally {
      const current = opened.get(service);
      opened.delete(service);
      if (current) await current.then((d) => d.close()).catch(() => undefined);
    }
  };
  void pending;
}
