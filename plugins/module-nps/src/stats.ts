/**
 * The statistics of /home's NPS block and of GET /nps/stats: over the answers given in a period
 * (by answer time), the NPS figures in total, by queue and by user (the ticket's queue and user
 * at its close), and how many surveys were asked in the period and ended without an answer.
 * Names come from the core (a queue or user deleted since: null name).
 */
import type { CoreApi } from "@openatende/plugin-sdk";
import { figuresOfCounts, type NpsFigures } from "./scale";
import type { Period, SurveyStore } from "./store";

export type { Period } from "./store";

export interface NpsStats {
  total: NpsFigures & { asked: number; timedOut: number; waiting: number };
  byQueue: Array<NpsFigures & { queueId: number | null; name: string | null }>;
  byUser: Array<NpsFigures & { userId: number | null; name: string | null }>;
}

/** Best NPS first, then most answers; "no queue" / "no user" (null) last. */
const order = <T extends NpsFigures>(a: T & { id: number | null }, b: T & { id: number | null }) =>
  (a.id === null ? 1 : 0) - (b.id === null ? 1 : 0) || (b.score ?? -101) - (a.score ?? -101) || b.answered - a.answered || (a.id ?? 0) - (b.id ?? 0);

/** Counted by the database (store.ts answeredBy, askedByState): nothing of the table is held here. */
export async function statsOf(api: CoreApi, store: Pick<SurveyStore, "answeredBy" | "askedByState">, tenantId: number, p: Period): Promise<NpsStats> {
  const [queueCounts, userCounts, asked, queues, users] = await Promise.all([
    store.answeredBy(tenantId, "queueId", p),
    store.answeredBy(tenantId, "userId", p),
    store.askedByState(tenantId, p),
    api.queues.list({ tenantId }),
    api.users.list({ tenantId }),
  ]);
  const queueName = new Map(queues.map((q) => [q.id, q.name]));
  const userName = new Map(users.map((u) => [u.id, u.name]));
  const byQueue = queueCounts.map((c) => ({ id: c.id, ...figuresOfCounts(c) })).sort(order);
  const byUser = userCounts.map((c) => ({ id: c.id, ...figuresOfCounts(c) })).sort(order);
  const sum = (k: "promoters" | "passives" | "detractors") => queueCounts.reduce((n, c) => n + c[k], 0);
  const count = (...states: string[]) => states.reduce((n, s) => n + (asked.get(s as never) ?? 0), 0);
  return {
    total: {
      ...figuresOfCounts({ promoters: sum("promoters"), passives: sum("passives"), detractors: sum("detractors") }),
      asked: [...asked.values()].reduce((n, v) => n + v, 0),
      timedOut: count("timedOut"),
      waiting: count("waiting", "retry"),
    },
    byQueue: byQueue.map(({ id, ...f }) => ({ queueId: id, name: id === null ? null : (queueName.get(id) ?? null), ...f })),
    byUser: byUser.map(({ id, ...f }) => ({ userId: id, name: id === null ? null : (userName.get(id) ?? null), ...f })),
  };
}
