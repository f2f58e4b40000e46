/**
 * MariaDB rolls back the whole transaction it picks as a deadlock's victim (errno 1213), so
 * the only safe retry is of the whole transaction. `retryDeadlocks` runs `run` again (up to
 * `attempts` times, a few milliseconds apart) when it failed that way; `run` must be a
 * transaction whose work is all inside it (nothing sent or emitted before it commits).
 */
export function isDeadlock(err: unknown): boolean {
  const e = err as { errno?: number; parent?: { errno?: number }; original?: { errno?: number } } | null;
  return e?.errno === 1213 || e?.parent?.errno === 1213 || e?.original?.errno === 1213;
}

export async function retryDeadlocks<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isDeadlock(err) || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 3 * attempt + Math.floor(Math.random() * 5)));
    }
  }
}
