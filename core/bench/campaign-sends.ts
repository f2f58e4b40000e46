/**
 * bench:campaign's reading of what the benchmarks' channel was handed: each campaign's message
 * names its phase and campaign index, the contact's name its index (`bench <phase> c<k> C<i>`),
 * so a send tells which contact of which campaign it was; and the rate over a window.
 */
import type { Handed } from "./outbound-kit";

export const bodyOf = (label: string, k: number) => `bench ${label} c${k} {{name}}`;
const PARSE = /^bench (\S+) c(\d+) C(\d+)$/;

/** The phase's sends as the channel saw them: per campaign index and contact. */
export function sendsOf(all: Handed[], label: string) {
  const sends: Array<{ k: number; contact: number; at: number; connectionId: number }> = [];
  for (const h of all) {
    const m = PARSE.exec(h.body);
    if (m && m[1] === label) sends.push({ k: Number(m[2]), contact: Number(m[3]), at: h.at, connectionId: h.connectionId });
  }
  return sends.sort((a, b) => a.at - b.at);
}

/** Rate over [from, to) and per-second buckets. */
export function rateIn(times: number[], from: number, to: number) {
  const secs = Math.floor((to - from) / 1000);
  const buckets = new Array(Math.max(1, secs)).fill(0);
  let n = 0;
  for (const t of times) {
    if (t < from || t >= from + secs * 1000) continue;
    n++;
    buckets[Math.floor((t - from) / 1000)]++;
  }
  return { sends: n, perSecond: Number((n / Math.max(1, secs)).toFixed(2)), bucketMin: Math.min(...buckets), bucketMax: Math.max(...buckets), buckets };
}

