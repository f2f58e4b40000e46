import Bull from "bull";
import { randomBytes } from "node:crypto";
import { closeQueue } from "../src/lib/bull-close";

const REDIS = "redis://127.0.0.1:6379";

/** Real Redis: a worker blocked waiting for jobs is closed, and nothing is lost or run twice. */
describe("closeQueue", () => {
  const prefix = `oa-test-bull-close-${randomBytes(4).toString("hex")}`;

  afterAll(async () => {
    const q = new Bull("q", REDIS, { prefix });
    await q.obliterate({ force: true }).catch(() => undefined);
    await q.close();
  });

  it.each([false, true])("closes a queue whose worker waits for jobs (doNotWaitJobs %s); a job added after is run once by the next worker", async (doNotWaitJobs) => {
    const name = `q-${doNotWaitJobs}`;
    const first = new Bull<{ n: number }>(name, REDIS, { prefix });
    const ran: Array<[string, number]> = [];
    void first.process(async (job) => void ran.push(["first", job.data.n]));
    await first.add({ n: 1 });
    for (let i = 0; i < 200 && ran.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual([["first", 1]]);
    // The worker is now blocked in BRPOPLPUSH.
    await new Promise((r) => setTimeout(r, 50));
    await closeQueue(first, doNotWaitJobs);
    const clients = (first as unknown as { clients: Array<{ status: string }> }).clients;
    expect(clients.every((c) => c.status === "end")).toBe(true);

    const producer = new Bull<{ n: number }>(name, REDIS, { prefix });
    await producer.add({ n: 2 });
    const second = new Bull<{ n: number }>(name, REDIS, { prefix });
    void second.process(async (job) => void ran.push(["second", job.data.n]));
    for (let i = 0; i < 300 && ran.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual([["first", 1], ["second", 2]]);
    await Promise.all([closeQueue(second), closeQueue(producer)]);
  });

  it("closes a queue that has no worker (no blocking connection)", async () => {
    const q = new Bull("plain", REDIS, { prefix });
    await q.add({ n: 1 });
    await closeQueue(q);
    expect((q as unknown as { clients: Array<{ status: string }> }).clients.every((c) => c.status === "end")).toBe(true);
  });
});
