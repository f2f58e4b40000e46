/**
 * The core API client (client.ts): each named method calls the platform action of its group and
 * name (`api.businessTime.state` → "platform.businessTime.state"), with the params as given and
 * the calling plugin in `$caller`, from a service as from the Context of one of its actions.
 */
import { ServiceBroker, type Context } from "moleculer";
import { coreApi, type CoreApi } from "./client";

const ACTIONS = [
  "contacts.get",
  "contacts.list",
  "contacts.after",
  "contacts.byTags",
  "contacts.update",
  "inbound.claim",
  "inbound.release",
  "contacts.addresses",
  "tickets.get",
  "tickets.list",
  "tickets.after",
  "tickets.update",
  "messages.list",
  "messages.get",
  "messages.send",
  "messages.sendTo",
  "templates.list",
  "connections.balance",
  "queues.list",
  "users.list",
  "users.get",
  "users.availability",
  "tags.list",
  "settings.get",
  "notes.list",
  "businessTime.state",
  "realtime.push",
  "chatbots.bindings",
  "chatbots.bind",
  "chatbots.start",
  "chatbots.handoff",
  "plan.assertWithin",
];
/** Methods that stream (tested in platform-files.test.ts). */
const STREAMING = ["files.upload"];

describe("coreApi client", () => {
  const broker = new ServiceBroker({ logger: false });
  const seen: Array<{ action: string; params: unknown; caller: unknown }> = [];
  beforeAll(async () => {
    // What the core's platform service receives (the core's own tests cover its answers).
    broker.createService({
      name: "platform",
      actions: Object.fromEntries(
        ACTIONS.map((a) => [
          a,
          (ctx: Context<unknown, { $caller?: unknown }>) => {
            seen.push({ action: `platform.${a}`, params: ctx.params, caller: ctx.meta.$caller });
            return { answered: a };
          },
        ]),
      ),
    });
    broker.createService({
      name: "module-probe",
      metadata: { plugin: { id: "module-probe" } },
      actions: {
        viaContext(ctx: Context) {
          return coreApi(ctx).businessTime.state({ tenantId: 1, target: { queueId: 2 } });
        },
      },
    });
    await broker.start();
  });
  afterAll(() => broker.stop());

  it("has a method for every platform action, calling that action with the plugin as caller", async () => {
    const svc = broker.getLocalService("module-probe") as unknown as Parameters<typeof coreApi>[0];
    const api = coreApi(svc) as unknown as Record<string, Record<string, (p: unknown) => Promise<unknown>>>;
    for (const a of ACTIONS) {
      const [group, method] = a.split(".");
      seen.length = 0;
      expect(await api[group][method]({ tenantId: 7, probe: a })).toEqual({ answered: a });
      expect(seen).toEqual([{ action: `platform.${a}`, params: { tenantId: 7, probe: a }, caller: { plugin: "module-probe" } }]);
    }
    const groups = Object.entries(coreApi(svc) as CoreApi).filter(([k]) => k !== "call");
    expect(groups.flatMap(([g, fns]) => Object.keys(fns as object).map((m) => `${g}.${m}`)).sort()).toEqual([...ACTIONS, ...STREAMING].sort());
  });

  it("from an action's Context the calling plugin is the Context's service", async () => {
    seen.length = 0;
    expect(await broker.call("module-probe.viaContext")).toEqual({ answered: "businessTime.state" });
    expect(seen).toEqual([{ action: "platform.businessTime.state", params: { tenantId: 1, target: { queueId: 2 } }, caller: { plugin: "module-probe" } }]);
  });
});
