import { TelegramError } from "telegraf";
import { SendQueue, QueueClosedError, defaultChatInterval } from "./send-queue";

const tooMany = (retryAfter: number) => new TelegramError({ error_code: 429, description: `Too Many Requests: retry after ${retryAfter}`, parameters: { retry_after: retryAfter } });

describe("SendQueue", () => {
  it("spaces calls to one chat by the chat interval, in order, while other chats go at once", async () => {
    const q = new SendQueue({ chatIntervalMs: () => 150 });
    const seen: Array<[string, number]> = [];
    const t0 = Date.now();
    const call = (chat: string, n: number) => q.enqueue(chat, async () => (seen.push([`${chat}${n}`, Date.now() - t0]), n));
    const res = await Promise.all([call("a", 1), call("a", 2), call("a", 3), call("b", 1)]);
    expect(res).toEqual([1, 2, 3, 1]);
    const at = Object.fromEntries(seen);
    expect(seen.filter(([k]) => k.startsWith("a")).map(([k]) => k)).toEqual(["a1", "a2", "a3"]);
    expect(at.a2 - at.a1).toBeGreaterThanOrEqual(145);
    expect(at.a3 - at.a2).toBeGreaterThanOrEqual(145);
    expect(at.b1).toBeLessThan(100);
  });

  it("keeps the bot's overall rate", async () => {
    const q = new SendQueue({ perSecond: 20, chatIntervalMs: () => 0 });
    const at: number[] = [];
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 10 }, (_, i) => q.enqueue(`chat${i}`, async () => at.push(Date.now() - t0))));
    // 10 calls at 20/s take at least 9 slots of 50 ms.
    expect(Math.max(...at)).toBeGreaterThanOrEqual(440);
  });

  it("waits retry_after on a 429 and tries the same call again; the chat's next call waits behind it", async () => {
    const q = new SendQueue({ chatIntervalMs: () => 0 });
    let tries = 0;
    const at: number[] = [];
    const t0 = Date.now();
    const first = q.enqueue("a", async () => {
      at.push(Date.now() - t0);
      if (++tries === 1) throw tooMany(0.3);
      return "sent";
    });
    const second = q.enqueue("a", async () => (at.push(Date.now() - t0), "next"));
    expect(await first).toBe("sent");
    expect(await second).toBe("next");
    expect(tries).toBe(2);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(295);
    expect(at[2]).toBeGreaterThanOrEqual(at[1]);
  });

  it("gives up after maxAttempts 429s, and fails at once while a chat is blocked for longer than maxRetryAfterMs", async () => {
    const q = new SendQueue({ chatIntervalMs: () => 0, maxAttempts: 2 });
    let n = 0;
    await expect(q.enqueue("a", async () => (n++, Promise.reject(tooMany(0.05))))).rejects.toBeInstanceOf(TelegramError);
    expect(n).toBe(2);

    const blocked = new SendQueue({ chatIntervalMs: () => 0, maxRetryAfterMs: 1000 });
    await expect(blocked.enqueue("a", () => Promise.reject(tooMany(60)))).rejects.toThrow(/retry after 60/);
    const called = jest.fn(async () => "x");
    const t0 = Date.now();
    await expect(blocked.enqueue("a", called)).rejects.toThrow(/retry after 60/);
    expect(called).not.toHaveBeenCalled();
    expect(Date.now() - t0).toBeLessThan(100);
    // Another chat is not blocked.
    expect(await blocked.enqueue("b", called)).toBe("x");
  });

  it("other errors fail the call without a retry; close fails what is still waiting", async () => {
    const q = new SendQueue({ chatIntervalMs: () => 200 });
    const refused = new TelegramError({ error_code: 400, description: "Bad Request: chat not found" });
    let n = 0;
    await expect(q.enqueue("a", async () => (n++, Promise.reject(refused)))).rejects.toBe(refused);
    expect(n).toBe(1);
    const waiting = q.enqueue("a", async () => "late");
    q.close("the connection was disconnected");
    await expect(waiting).rejects.toBeInstanceOf(QueueClosedError);
    await expect(q.enqueue("b", async () => "x")).rejects.toBeInstanceOf(QueueClosedError);
  });

  it("gives groups (negative ids) Telegram's 20 a minute", () => {
    expect(defaultChatInterval("123")).toBe(1000);
    expect(defaultChatInterval("-100123")).toBe(3000);
  });
});
