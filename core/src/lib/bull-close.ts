import type Bull from "bull";

/** What closeQueue reads of a Bull 4 queue's inside (bull/lib/queue.js, 4.16). */
interface QueueInside {
  bclientInitialized?: boolean;
  bclient?: { status: string; disconnect(): void };
  paused?: unknown;
}

/**
 * Closes a Bull queue without Bull's half-second wait. To stop a worker, Bull pauses it and
 * sends QUIT on the blocking connection; that connection is inside BRPOPLPUSH (up to the
 * queue's drainDelay, 5 s), so Redis answers QUIT only then and Bull gives up after its own
 * 500 ms timeout: half a second for every queue with a worker, at every stop of a node (and
 * of every test's core). Once the pause has begun (Bull then takes the blocked call's
 * "Connection is closed" as its own), the blocking connection is cut here at once; Bull goes
 * on closing as it would have after the timeout. A queue with no worker has no blocking
 * connection and closes as Bull does.
 *
 * `doNotWaitJobs` is Bull's: true leaves running jobs to Bull's stalled check for another node.
 */
export async function closeQueue(q: Bull.Queue<any>, doNotWaitJobs = false): Promise<void> {
  const closing = q.close(doNotWaitJobs);
  const inside = q as unknown as QueueInside;
  if (inside.bclientInitialized) {
    // The pause starts after the queue's isReady(): a few turns of the event loop.
    for (let i = 0; i < 100 && !inside.paused; i++) await new Promise((r) => setImmediate(r));
    if (inside.paused && inside.bclient?.status === "ready") inside.bclient.disconnect();
  }
  await closing;
}
