import { ServiceBroker } from "moleculer";
import { jobHandlers } from "./registry";
import { jobIdOf } from "./store";

describe("scheduler registry and job ids", () => {
  it("keeps core handlers per broker, once per owner and name, and tells of new owners", () => {
    const a = new ServiceBroker({ logger: false });
    const b = new ServiceBroker({ logger: false });
    const seen: string[] = [];
    jobHandlers(a).onRegister((owner) => seen.push(owner));
    const h = () => undefined;
    jobHandlers(a).register("tickets", "autoClose", h);
    expect(jobHandlers(a).get("tickets", "autoClose")).toBe(h);
    expect(jobHandlers(b).get("tickets", "autoClose")).toBeUndefined();
    expect(() => jobHandlers(a).register("tickets", "autoClose", h)).toThrow(/has a handler already/);
    expect(jobHandlers(a).owners()).toEqual(["tickets"]);
    expect(seen).toEqual(["tickets"]);
  });

  it("a job id is owner, tenant, name, key and due time; a key cannot forge another's", () => {
    expect(jobIdOf({ owner: "tickets", tenantId: 2, name: "autoClose", key: "ticket-9", dueAt: 1000 })).toBe("tickets:2:autoClose:ticket-9:1000");
    expect(jobIdOf({ owner: "x", tenantId: 1, name: "n", key: "a:1:b", dueAt: 5 })).toBe("x:1:n:a%3A1%3Ab:5");
  });
});
