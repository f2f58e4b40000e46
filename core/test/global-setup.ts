import { createConnection } from "mysql2/promise";
import Redis from "ioredis";

/** Integration tests need the machine's MariaDB and Redis: fail early with a clear message. */
export default async function globalSetup(): Promise<void> {
  try {
    const c = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
    await c.end();
  } catch (err) {
    throw new Error(`MariaDB is not reachable at 127.0.0.1:3306 (root, no password): ${(err as Error).message}`);
  }
  const r = new Redis("redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
  } catch (err) {
    throw new Error(`Redis is not reachable at 127.0.0.1:6379: ${(err as Error).message}`);
  } finally {
    r.disconnect();
  }
}
