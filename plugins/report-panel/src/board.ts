/**
 * The panel's figures: per queue (then the tickets of no queue) how many wait, how many are in
 * service, since when the oldest one waits and its wait at `now`, and how many of the queue's
 * agents are online; the same over the tenant (online: every user online, once).
 */
import type { PlatformQueue, PlatformUser } from "@openatende/plugin-sdk";
import type { LiveTicket } from "./projection";

export interface BoardLine {
  /** null: the tickets of no queue (or of a queue since deleted). */
  queueId: number | null;
  name: string;
  color: string | null;
  waiting: number;
  inService: number;
  /** The oldest waiting ticket's start (epoch ms), null when none waits. */
  oldestWaitingSince: number | null;
  longestWaitMs: number | null;
  agentsOnline: number;
}

export interface Board {
  /** The server's instant the waits were measured at (the UI ticks from it). */
  now: number;
  queues: BoardLine[];
  total: Omit<BoardLine, "queueId" | "name" | "color">;
}

type Counts = Pick<BoardLine, "waiting" | "inService" | "oldestWaitingSince">;
const empty = (): Counts => ({ waiting: 0, inService: 0, oldestWaitingSince: null });

function add(c: Counts, r: LiveTicket): void {
  if (r.status === "open") c.inService++;
  if (r.status !== "pending") return;
  c.waiting++;
  const since = r.waitingSince ?? 0;
  if (c.oldestWaitingSince === null || since < c.oldestWaitingSince) c.oldestWaitingSince = since;
}

const waitAt = (c: Counts, now: number) => (c.oldestWaitingSince === null ? null : Math.max(0, now - c.oldestWaitingSince));

export function buildBoard(queues: Array<Pick<PlatformQueue, "id" | "name" | "color">>, users: PlatformUser[], rows: LiveTicket[], now: number): Board {
  const byQueue = new Map<number | null, Counts>(queues.map((q) => [q.id, empty()]));
  const total = empty();
  for (const r of rows) {
    const key = r.queueId !== null && byQueue.has(r.queueId) ? r.queueId : null;
    if (!byQueue.has(key)) byQueue.set(key, empty());
    add(byQueue.get(key)!, r);
    add(total, r);
  }
  const online = users.filter((u) => u.online);
  const line = (queueId: number | null, name: string, color: string | null): BoardLine => {
    const c = byQueue.get(queueId)!;
    const agentsOnline = queueId === null ? 0 : online.filter((u) => u.queueIds.includes(queueId)).length;
    return { queueId, name, color, ...c, longestWaitMs: waitAt(c, now), agentsOnline };
  };
  const lines = queues.map((q) => line(q.id, q.name, q.color ?? null));
  if (byQueue.has(null)) lines.push(line(null, "", null));
  return { now, queues: lines, total: { ...total, longestWaitMs: waitAt(total, now), agentsOnline: online.length } };
}
