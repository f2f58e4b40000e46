import { Lanes } from "./lanes";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A task that records when it starts and ends, and how many ran at once. */
function recorder() {
  const log: string[] = [];
  let now = 0;
  let peak = 0;
  const task = (name: string, ms: number) => async () => {
    log.push(`+${name}`);
    peak = Math.max(peak, ++now);
    await sleep(ms);
    now--;
    log.push(`-${name}`);
  };
  return { log, task, peak: () => peak };
}

describe("Lanes", () => {
  it("runs one key's tasks one at a time, in the order pushed, whatever each takes", async () => {
    const lanes = new Lanes(8);
    const r = recorder();
    await Promise.all([lanes.push("a", r.task("a1", 30)), lanes.push("a", r.task("a2", 1)), lanes.push("a", r.task("a3", 10))]);
    expect(r.log).toEqual(["+a1", "-a1", "+a2", "-a2", "+a3", "-a3"]);
    expect(r.peak()).toBe(1);
  });

  it("runs different keys side by side, never more than the limit at once", async () => {
    const lanes = new Lanes(3);
    const r = recorder();
    let seen = 0;
    const all = Array.from({ length: 12 }, (_, i) =>
      lanes.push(`k${i}`, async () => {
        seen = Math.max(seen, lanes.running);
        await r.task(`k${i}`, 15)();
      }),
    );
    expect(lanes.pending).toBe(12);
    const t0 = Date.now();
    await Promise.all(all);
    expect(r.peak()).toBe(3);
    expect(seen).toBe(3);
    // 12 tasks of 15 ms, 3 at a time: about 4 rounds, far less than 12 in a row.
    expect(Date.now() - t0).toBeLessThan(12 * 15);
    expect(lanes.pending).toBe(0);
  });

  it("gives keys turns: a key with a long queue does not hold back one that came later", async () => {
    const lanes = new Lanes(1);
    const r = recorder();
    const busy = Array.from({ length: 4 }, (_, i) => lanes.push("busy", r.task(`b${i}`, 5)));
    const quiet = lanes.push("quiet", r.task("q", 5));
    await Promise.all([...busy, quiet]);
    expect(r.log.filter((x) => x.startsWith("+"))).toEqual(["+b0", "+q", "+b1", "+b2", "+b3"]);
  });

  it("a task asking to run again later keeps its key's order and frees its runner while it waits", async () => {
    const lanes = new Lanes(1);
    const order: string[] = [];
    let tries = 0;
    const first = lanes.push("m", async () => {
      order.push(`first#${++tries}`);
      return tries < 3 ? { againInMs: 20 } : undefined;
    });
    const second = lanes.push("m", async () => void order.push("second"));
    const other = lanes.push("x", async () => void order.push("other"));
    await Promise.all([first, second, other]);
    // "other" ran while "first" waited (one runner only); "second" never overtook "first".
    expect(order).toEqual(["first#1", "other", "first#2", "first#3", "second"]);
  });

  it("a failing task rejects its own promise only; its key goes on with the next", async () => {
    const lanes = new Lanes(2);
    const bad = lanes.push("a", async () => {
      throw new Error("core away");
    });
    const sync = lanes.push("a", () => {
      throw new Error("thrown before a promise");
    });
    let ran = false;
    const next = lanes.push("a", async () => void (ran = true));
    await expect(bad).rejects.toThrow("core away");
    await expect(sync).rejects.toThrow("thrown before a promise");
    await next;
    expect(ran).toBe(true);
    await lanes.idle();
    expect(lanes.pending).toBe(0);
  });

  it("idle waits for everything pushed, including tasks waiting to run again", async () => {
    const lanes = new Lanes(4);
    let done = 0;
    let again = true;
    void lanes.push("a", async () => {
      if (again) {
        again = false;
        return { againInMs: 30 };
      }
      done++;
    });
    void lanes.push("b", async () => void done++);
    await lanes.idle();
    expect(done).toBe(2);
    await lanes.idle();
  });

  it("refuses a limit that is not a positive whole number", () => {
    expect(() => new Lanes(0)).toThrow(/positive whole limit/);
    expect(() => new Lanes(1.5)).toThrow(/positive whole limit/);
  });
});
