/**
 * The statistics of /home's NPS block and of GET /nps/stats: over the answers given in a period
 * (by answer time), the NPS figures in total, by queue and by user (the ticket's queue and user
 * at its close), and how many surveys were asked in the period and ended without an answer.
 * Names come from the core (a queue or user deleted since: null name).
 */
import type { CoreApi } from "@openatende/plugin-sdk";
import { figuresOf, type NpsFigures, type NpsGroup } from "./scale";
import type { SurveyRow } from "./store";

export interface Period {
  from?: number;
  to?: number;
}

export interface NpsStats {
  total: NpsFigures & { asked: number; timedOut: number; waiting: number };
  byQueue: Array<NpsFigures & { queueId: number | null; name: string | null }>;
  byUser: Array<NpsFigures & { userId: number | null; name: string | null }>;
}

const within = (t: number | null, p: Period) => t !== null && (p.from === undefined || t >= p.from) && (p.to === undefined || t <= p.to);

function groupBy<K>(rows: SurveyRow[], key: (r: SurveyRow) => K): Map<K, NpsGroup[]> {
  const m = new Map<K, NpsGroup[]>();
  for (const r of rows) {
    const k = key(r);
    m.set(k, [...(m.get(k) ?? []), r.npsGroup as NpsGroup]);
  }
  return m;
}

/** Best NPS first, then most answers; "no queue" / "no user" (null) last. */
const order = <T extends NpsFigures>(a: T & { id: number | null }, b: T & { id: number | null }) =>
  (a.id === null ? 1 : 0) - (b.id === null ? 1 : 0) || (b.score ?? -101) - (a.score ?? -101) || b.answered - a.answered || (a.id ?? 0) - (b.id ?? 0);

export async function statsOf(api: CoreApi, tenantId: number, rows: SurveyRow[], p: Period): Promise<NpsStats> {
  const answered = rows.filter((r) => r.state === "answered" && within(r.answeredAt, p));
  const asked = rows.filter((r) => within(r.askedAt, p));
  const [queues, users] = await Promise.all([api.queues.list({ tenantId }), api.users.list({ tenantId })]);
  const queueName = new Map(queues.map((q) => [q.id, q.name]));
  const userName = new Map(users.map((u) => [u.id, u.name]));
  const byQueue = [...groupBy(answered, (r) => r.queueId)].map(([id, g]) => ({ id, ...figuresOf(g) })).sort(order);
  const byUser = [...groupBy(answered, (r) => r.userId)].map(([id, g]) => ({ id, ...figuresOf(g) })).sort(order);
  return {
    total: {
      ...figuresOf(answered.map((r) => r.npsGroup as NpsGroup)),
      asked: asked.length,
      timedOut: asked.filter((r) => r.state === "timedOut").length,
      waiting: asked.filter((r) => r.state === "waiting" || r.state === "retry").length,
    },
    byQueue: byQueue.map(({ id, ...f }) => ({ queueId: id, name: id === null ? null : (queueName.get(id) ?? null), ...f })),
    byUser: byUser.map(({ id, ...f }) => ({ userId: id, name: id === null ? null : (userName.get(id) ?? null), ...f })),
  };
}
