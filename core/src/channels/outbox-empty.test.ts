import { KnownEmpty } from "./outbox-empty";

describe("KnownEmpty (outbox.waits' memory of connections with nothing waiting)", () => {
  let now = 1_000;
  const clock = () => now;

  it("keeps an empty answer for its time, then asks again", () => {
    const e = new KnownEmpty(1000, clock);
    expect(e.has(7)).toBe(false);
    e.found(e.asking(7));
    expect(e.has(7)).toBe(true);
    expect(e.has(8)).toBe(false);
    now += 999;
    expect(e.has(7)).toBe(true);
    now += 1;
    expect(e.has(7)).toBe(false);
  });

  it("forgets a connection at once when something is enqueued for it", () => {
    const e = new KnownEmpty(1000, clock);
    e.found(e.asking(7));
    e.found(e.asking(8));
    e.forget(7);
    expect(e.has(7)).toBe(false);
    expect(e.has(8)).toBe(true);
  });

  it("does not believe a look that began before an enqueue of its connection", () => {
    const e = new KnownEmpty(1000, clock);
    const look = e.asking(7);
    e.forget(7); // a row was written while the look was reading the table
    e.found(look);
    expect(e.has(7)).toBe(false);
    // A look begun after it is believed.
    e.found(e.asking(7));
    expect(e.has(7)).toBe(true);
  });
});
