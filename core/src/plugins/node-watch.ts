/**
 * The liveness of plugin nodes. A node killed without a word (kill -9, a crash) is noticed at
 * once over TCP but only after Moleculer's heartbeat timeout (30 s) over NATS; this watch pings
 * the nodes that run plugin services and declares one gone after a few missed pongs, which
 * rejects the calls pending on it and removes its services. The outbox service runs it (it
 * reacts to plugins going away), so it is one of the plugin host's public files.
 */
import type { ServiceBroker } from "moleculer";

/** True for a service made by definePlugin() (its metadata names the plugin). */
function isPluginService(s: { metadata?: Record<string, unknown> }): boolean {
  return !!s.metadata && typeof s.metadata.plugin === "object" && s.metadata.plugin !== null;
}

export interface WatchOptions {
  intervalMs?: number;
  timeoutMs?: number;
  /** Missed pongs in a row that make a node gone. */
  misses?: number;
  onGone?(nodeID: string): void;
}

/**
 * Pings the remote nodes that run plugin services; a node that misses `misses` pongs in a row
 * is declared disconnected (its pending calls are rejected, its services removed). A node
 * declared gone keeps being pinged for a while: one that was only slow (a busy machine) and
 * answers is asked for its INFO at once, instead of at its next heartbeat.
 */
export function watchPluginNodes(broker: ServiceBroker, opts: WatchOptions = {}): { stop(): void } {
  const intervalMs = opts.intervalMs ?? 1000;
  const timeoutMs = opts.timeoutMs ?? 2000;
  const misses = opts.misses ?? 3;
  const missed = new Map<string, number>();
  /** Nodes declared gone here, and when: pinged for a minute more. */
  const gone = new Map<string, number>();
  const inFlight = new Set<string>();
  const registry = broker.registry as unknown as {
    getNodeList(o: { onlyAvailable: boolean; withServices: boolean }): Array<{ id: string; local: boolean; available: boolean; services?: Array<{ metadata?: Record<string, unknown> }> }>;
    nodes: { disconnected(nodeID: string, unexpected: boolean): void; get(nodeID: string): { available: boolean } | undefined };
    discoverer: { discoverNode(nodeID: string): unknown };
  };
  const ping = (id: string, onPong: () => void, onMiss: () => void) => {
    if (inFlight.has(id)) return;
    inFlight.add(id);
    broker
      .ping(id, timeoutMs)
      .then((pong) => (pong ? onPong() : onMiss()))
      .catch(() => undefined)
      .finally(() => inFlight.delete(id));
  };
  const timer = setInterval(() => {
    if (!broker.transit?.connected) return;
    const nodes = registry.getNodeList({ onlyAvailable: true, withServices: true }).filter((n) => !n.local && (n.services ?? []).some(isPluginService));
    const live = new Set(nodes.map((n) => n.id));
    for (const id of missed.keys()) if (!live.has(id)) missed.delete(id);
    for (const n of nodes) {
      gone.delete(n.id);
      ping(
        n.id,
        () => void missed.delete(n.id),
        () => {
          const count = (missed.get(n.id) ?? 0) + 1;
          missed.set(n.id, count);
          if (count < misses || !registry.nodes.get(n.id)?.available) return;
          missed.delete(n.id);
          gone.set(n.id, Date.now());
          broker.logger.warn(`Plugin node '${n.id}' missed ${count} pings: taken as gone.`);
          registry.nodes.disconnected(n.id, true);
          opts.onGone?.(n.id);
        },
      );
    }
    for (const [id, since] of gone) {
      if (Date.now() - since > 60_000) {
        gone.delete(id);
        continue;
      }
      ping(
        id,
        () => {
          if (!gone.delete(id)) return;
          broker.logger.info(`Plugin node '${id}' answers again: asking for its services.`);
          registry.discoverer.discoverNode(id);
        },
        () => undefined,
      );
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
