/**
 * What every integration test of the core and of the plugins asserts with (re-exported by the
 * testkit): an answer of the expected status, an error of the expected code, and a wait for a
 * state the system reaches by itself (events, jobs, sockets), polled.
 */
import type { Res } from "./helpers";

/** The answer's body when its status is `status` (200 by default); throws with the body otherwise. */
export async function ok<T = any>(p: Promise<Res<T>>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The answer is the error `code` with `status` (and, when given, data matching `data`). */
export function expectError(r: Res, status: number, code: string, data?: Record<string, unknown>): void {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  if (data) expect(r.body.data).toMatchObject(data);
}

/** Reads until `good` holds (every `every` ms, at most `ms`), answering what was read; throws with `what` and the last value. */
export async function waitFor<T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 20_000, every = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
