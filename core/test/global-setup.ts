import * as net from "node:net";
import { createConnection } from "mysql2/promise";
import Redis from "ioredis";

const HINT = "`npm test -- --setup-only` (as root) installs and starts what is missing";

function natsAnswers(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: "127.0.0.1", port });
    s.setTimeout(2000, () => s.destroy(new Error("no answer in 2 s")));
    s.once("connect", () => (s.end(), resolve()));
    s.once("error", reject);
  });
}

/**
 * The integration and browser tests need the machine's MariaDB, Redis and NATS (the unit
 * project has no global setup): fail early with a clear message.
 */
export default async function globalSetup(): Promise<void> {
  try {
    const c = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
    await c.end();
  } catch (err) {
    throw new Error(`MariaDB is not reachable at 127.0.0.1:3306 (root, no password): ${(err as Error).message}. ${HINT}`);
  }
  const r = new Redis("redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
  } catch (err) {
    throw new Error(`Redis is not reachable at 127.0.0.1:6379: ${(err as Error).message}. ${HINT}`);
  } finally {
    r.disconnect();
  }
  await natsAnswers(4222).catch((err: Error) => {
    throw new Error(`NATS is not reachable at 127.0.0.1:4222: ${err.message}. ${HINT}`);
  });
}
