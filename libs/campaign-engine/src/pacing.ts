/**
 * How a campaign paces its sends, as pure functions of the clock and a random source (both
 * injected, so tests need no sleeps):
 *
 * - each of the campaign's connections is a *lane* with the time it may send next (`nextAt`);
 *   lanes take turns (round robin from the one after the last used), and after a send its lane
 *   waits a random interval between the campaign's minimum and maximum seconds, so several
 *   connections send side by side, each at its own pace;
 * - a lane whose connection is outside business hours waits until it opens (`nextOpenAt`);
 * - a lane whose channel answered "rate limited" backs off (5 s, doubled on each refusal up to
 *   10 min) and keeps that back-off added to its interval, halving it on each accepted send, so
 *   the campaign slows down instead of failing contacts;
 * - one of the content's variants is chosen per contact.
 */
export interface Lane {
  connectionId: number;
  /** Epoch ms from which the lane may send. */
  nextAt: number;
  /** Extra wait after each send while the channel recovers from a rate limit (ms; 0: none). */
  backoffMs: number;
}

export interface LaneState {
  lanes: Lane[];
  /** The index of the lane to try first. */
  cursor: number;
}

export const RATE_LIMIT_FIRST_BACKOFF_MS = 5_000;
export const RATE_LIMIT_MAX_BACKOFF_MS = 600_000;
/** A lane closed with no opening within a year checks again after this long. */
export const CLOSED_RECHECK_MS = 3_600_000;

/** The lanes of a campaign's connections, keeping the state of those that stay. */
export function lanesFor(connectionIds: number[], previous: LaneState | null, now: number): LaneState {
  const old = new Map((previous?.lanes ?? []).map((l) => [l.connectionId, l]));
  const lanes = connectionIds.map((id) => old.get(id) ?? { connectionId: id, nextAt: now, backoffMs: 0 });
  return { lanes, cursor: previous && lanes.length ? previous.cursor % lanes.length : 0 };
}

/** The index of the first ready lane from the cursor on (round robin), or null with the time the earliest one is ready. */
export function pickLane(state: LaneState, now: number): { index: number } | { index: null; wakeAt: number } {
  const n = state.lanes.length;
  for (let k = 0; k < n; k++) {
    const i = (state.cursor + k) % n;
    if (state.lanes[i].nextAt <= now) return { index: i };
  }
  return { index: null, wakeAt: Math.min(...state.lanes.map((l) => l.nextAt)) };
}

/** A random interval in ms between min and max seconds (inclusive bounds, whole ms). */
export function randomIntervalMs(minSeconds: number, maxSeconds: number, random: () => number): number {
  return Math.round((minSeconds + random() * (maxSeconds - minSeconds)) * 1000);
}

/** How late a lane may run and still keep its cadence (see slotOf). */
export const CADENCE_SLACK_MS = 1000;

/**
 * The instant a due lane's send counts from: its planned time (`nextAt`) while it is at most
 * min(interval, CADENCE_SLACK_MS) late, so the small delays of a run (the scheduler's tick, a
 * slow send) do not add up and the lane keeps its rate; else now, so a lane that stood still
 * (paused, out of hours, a slow core) does not catch up in a burst.
 */
export function slotOf(lane: Lane, now: number, intervalMs: number): number {
  return lane.nextAt >= now - Math.min(intervalMs, CADENCE_SLACK_MS) ? Math.min(lane.nextAt, now) : now;
}

/** The lane after a send was claimed on it: it waits its interval plus its back-off; the next lane goes first. */
export function afterSend(state: LaneState, index: number, now: number, intervalMs: number): LaneState {
  const lanes = state.lanes.map((l, i) => (i === index ? { ...l, nextAt: now + intervalMs + l.backoffMs } : l));
  return { lanes, cursor: (index + 1) % lanes.length };
}

/** The lane after its channel accepted a send: its back-off halves (under 2 s: none). */
export function afterAccepted(state: LaneState, connectionId: number): LaneState {
  return { ...state, lanes: state.lanes.map((l) => (l.connectionId === connectionId ? { ...l, backoffMs: l.backoffMs >= 2000 ? Math.floor(l.backoffMs / 2) : 0 } : l)) };
}

/** The lane after its channel answered "rate limited": it backs off (doubling) and the others go on. */
export function afterRateLimited(state: LaneState, index: number, now: number): LaneState {
  const lanes = state.lanes.map((l, i) => {
    if (i !== index) return l;
    const backoffMs = Math.min(RATE_LIMIT_MAX_BACKOFF_MS, l.backoffMs > 0 ? l.backoffMs * 2 : RATE_LIMIT_FIRST_BACKOFF_MS);
    return { ...l, nextAt: now + backoffMs, backoffMs };
  });
  return { lanes, cursor: (index + 1) % lanes.length };
}

/** The lane while its connection is outside business hours: it waits for the opening. */
export function afterClosed(state: LaneState, index: number, now: number, nextOpenAt: number | null): LaneState {
  const wake = nextOpenAt !== null && nextOpenAt > now ? nextOpenAt : now + CLOSED_RECHECK_MS;
  return { lanes: state.lanes.map((l, i) => (i === index ? { ...l, nextAt: wake } : l)), cursor: state.cursor };
}

/** One variant of `count` (1…3) for a contact. */
export function chooseVariant(count: number, random: () => number): number {
  if (count <= 1) return 0;
  return Math.min(count - 1, Math.floor(random() * count));
}

/** Did a send fail because the channel is rate limiting (the core keeps the channel's code as the message's failReason)? */
export function isRateLimited(failReason: string | null | undefined): boolean {
  return typeof failReason === "string" && /^ERR_RATE_LIMITED\b/.test(failReason);
}
