/**
 * The typed bus: call/emit/broadcast reach the real actions and events, and the compiler
 * refuses a wrong name, wrong params or a wrong use of the result (the @ts-expect-error
 * lines below fail `tsc` the day the map stops catching them).
 */
import { ServiceBroker } from "moleculer";
import { broadcast, call, defineService, emit, serviceRunning } from "./call";
import type { TenantDbMethods } from "../db/tenant-db.mixin";
import type { User } from "../users/model";

describe("typed bus", () => {
  const broker = new ServiceBroker({ logger: false });
  const heard: unknown[] = [];

  beforeAll(async () => {
    broker.createService(
      defineService<{ greet(name: string): string }>({
        name: "users",
        actions: {
          getInternal: {
            params: { id: "number" },
            handler(ctx) {
              return { id: ctx.params.id, name: this.greet("Ana"), queues: [7] };
            },
          },
        },
        events: {
          "users.updated"(ctx) {
            heard.push(ctx.params);
          },
          "auth.sessionEnded"(ctx) {
            heard.push(ctx.params);
          },
        },
        methods: {
          greet(name: string) {
            return `hi ${name}`;
          },
        },
      }),
    );
    await broker.start();
  });
  afterAll(() => broker.stop());

  it("calls an action by its typed name and answers its result", async () => {
    const u = await call(broker, "users.getInternal", { id: 3 });
    expect(u).toEqual({ id: 3, name: "hi Ana", queues: [7] });
    // The result is typed: queues is number[] without a cast.
    const first: number | undefined = u?.queues[0];
    expect(first).toBe(7);
  });

  it("emits and broadcasts typed events", async () => {
    await emit(broker, "users.updated", { tenantId: 1, userId: 2 });
    await broadcast(broker, "auth.sessionEnded", { sessionIds: ["s1"] });
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual([{ tenantId: 1, userId: 2 }, { sessionIds: ["s1"] }]);
  });

  it("knows which services run", () => {
    expect(serviceRunning(broker, "users")).toBe(true);
    expect(serviceRunning(broker, "nobody")).toBe(false);
  });

  it("refuses wrong names, params and results at compile time", () => {
    const typeOnly = () => {
      // @ts-expect-error an action nobody declares
      void call(broker, "users.nope", { id: 1 });
      // @ts-expect-error a param of the wrong type
      void call(broker, "users.getInternal", { id: "1" });
      // @ts-expect-error a missing param
      void call(broker, "licence.limits", {});
      // @ts-expect-error an event payload that is not the declared one
      void emit(broker, "users.updated", { tenantId: 1 });
      void call(broker, "tenants.getInternal", { id: 1 }).then((t) => {
        // @ts-expect-error the result may be null
        void t.name;
      });
      defineService<TenantDbMethods<User>>({
        name: "x",
        actions: {
          a(ctx) {
            // `this` is typed: the mixin's methods are there, nothing else.
            void this.tenantOf(ctx);
            // @ts-expect-error not a method of this service
            void this.nope();
          },
        },
      });
    };
    expect(typeof typeOnly).toBe("function");
  });
});
