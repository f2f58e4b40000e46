/**
 * openPluginData(this) in a real Moleculer service: the database comes from the platform
 * context, one PluginData per service, closed when the service stops; a plugin without a
 * database in its context is told why.
 */
import { ServiceBroker } from "moleculer";
import type { PluginData } from "./contract";
import { PluginDataError } from "./errors";
import { openPluginData } from "./service";
import { runPluginMigrations } from "./migrate";
import { testPluginDatabase, TestPluginDatabase } from "./testing";
import { PluginContext, withPluginContext } from "../plugin-context";

const context = (database?: PluginContext["database"]): PluginContext => ({
  namespace: "t",
  redisPrefix: "t",
  redisUrl: "redis://127.0.0.1:6379",
  dataDir: "/tmp",
  publicUrl: "http://x.test",
  localFiles: true,
  external: false,
  ...(database ? { database } : {}),
});

describe("openPluginData in a service", () => {
  let db: TestPluginDatabase;
  let broker: ServiceBroker;

  beforeAll(async () => {
    db = await testPluginDatabase("sqlite");
    await runPluginMigrations(db.address, [{ name: "0001", up: (s) => s.createTable("notes", { columns: { id: { type: "integer" }, text: { type: "text" } }, primaryKey: ["id"] }) }]);
  });
  afterAll(async () => {
    await broker?.stop();
    await db?.drop();
  });

  it("opens the plugin's own database from its context, answers the same one each time, and closes it when the service stops", async () => {
    broker = new ServiceBroker({ logger: false });
    let seen: PluginData | undefined;
    const svc = broker.createService(
      withPluginContext(
        {
          name: "notes",
          actions: {
            async put(ctx) {
              const data = await openPluginData(this);
              seen = data;
              await data.forTenant(ctx.params.tenantId).table("notes").upsert({ id: ctx.params.id, text: ctx.params.text });
              return (await openPluginData(this)) === data;
            },
            async list(ctx) {
              return (await openPluginData(this)).forTenant(ctx.params.tenantId).table("notes").find({}, { orderBy: [["id", "asc"]] });
            },
          },
        },
        context(db.address),
      ),
    );
    await broker.start();
    expect(await broker.call("notes.put", { tenantId: 1, id: 1, text: "one" })).toBe(true);
    await broker.call("notes.put", { tenantId: 2, id: 1, text: "other tenant" });
    expect(await broker.call("notes.list", { tenantId: 1 })).toEqual([{ id: 1, text: "one" }]);
    await broker.destroyService(svc);
    await expect(seen!.forTenant(1).table("notes").count()).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_CLOSED" });
  });

  it("tells a plugin without a database of its own why there is none", async () => {
    const svc = { name: "bare", settings: (withPluginContext({ name: "bare" }, context()) as { settings?: unknown }).settings };
    await expect(openPluginData(svc)).rejects.toBeInstanceOf(PluginDataError);
    await expect(openPluginData(svc)).rejects.toThrow(/bare has no database of its own.*migrations\/ folder/);
    await expect(openPluginData({ name: "no-context" })).rejects.toThrow(/platform context is missing/);
  });
});
