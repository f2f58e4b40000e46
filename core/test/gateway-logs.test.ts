/**
 * What the gateway logs on ordinary traffic: nothing at warn level for answers that went
 * well (issue 12: every 201 logged "ctx.meta.$location is missing for status code 201").
 */
import { Loggers } from "moleculer";
import { startCore, createTenant, TestCore, TenantFixture } from "./helpers";

/** A Moleculer logger that keeps warn and worse in memory. */
class CaptureLogger extends Loggers.Base<Loggers.Base.LoggerOptions> {
  lines: string[] = [];
  override getLogHandler(bindings: { mod: string }) {
    return (level: string, args: unknown[]) => {
      if (["fatal", "error", "warn"].includes(level)) this.lines.push(`${level} ${bindings.mod}: ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(" ")}`);
    };
  }
}

describe("gateway logs", () => {
  let t: TestCore;
  let f: TenantFixture;
  const logger = new CaptureLogger({ level: "warn" });

  beforeAll(async () => {
    t = await startCore({ logger });
    f = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("201 answers log no warning", async () => {
    logger.lines.length = 0;
    for (let i = 0; i < 5; i++) {
      const tag = await t.api.post("/tags", { name: `Tag ${i}` }, f.admin);
      expect(tag.status).toBe(201);
      const qm = await t.api.post("/quick-messages", { key: `k${i}`, message: "Olá" }, f.admin);
      expect(qm.status).toBe(201);
    }
    const q = await t.api.post("/queues", { name: "Nova" }, f.admin);
    expect(q.status).toBe(201);
    expect(logger.lines).toEqual([]);
  });

  it("the capture sees the gateway's other warnings (the filter drops only the 201 line)", () => {
    const api = t.core.broker.getLocalService("api") as unknown as { logger: { warn(...a: unknown[]): void } };
    api.logger.warn("The 'ctx.meta.$location' is missing for status code '201'!");
    api.logger.warn("The 'ctx.meta.$location' is missing for status code '302'!");
    expect(logger.lines).toEqual([expect.stringContaining("'302'")]);
  });
});
