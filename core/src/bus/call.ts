/**
 * Typed broker calls between the core's services. `call(ctx, "users.getInternal", { id })`
 * checks the action's name and params against CoreActions (bus/actions.ts) and answers its
 * result type, with no `as` cast at the call site; `emit` and `broadcast` do the same for
 * events against CoreEvents. A service's `this` is typed with `defineService<Methods>()`.
 *
 * To add an action other services call: declare it in its domain's `contract.ts` (the
 * `<Domain>Actions` interface), which bus/actions.ts merges into CoreActions. Calls into a
 * channel plugin's service ("v1.channel-x.send") go through the SDK's `callChannel`.
 */
import type { CallingOptions, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { Caller, Emitter } from "@openatende/plugin-sdk";
import type { CoreActions, CoreEvents } from "./actions";

export type { CoreActions, CoreEvents, Caller, Emitter };

/** Anything with a Moleculer `broadcast`. */
export interface Broadcaster {
  broadcast(eventName: string, payload?: unknown, opts?: unknown): Promise<unknown> | unknown;
}

export type ActionName = keyof CoreActions;
export type ParamsOf<A extends ActionName> = CoreActions[A]["params"];
export type ResultOf<A extends ActionName> = CoreActions[A]["result"];

/** `ctx.call` checked against CoreActions. */
export function call<A extends ActionName>(ctx: Caller, action: A, params: ParamsOf<A>, opts?: CallingOptions): Promise<ResultOf<A>> {
  return ctx.call(action, params, opts) as Promise<ResultOf<A>>;
}

/**
 * `ctx.emit` (balanced: one instance of each listening service hears it) checked against
 * CoreEvents. Not awaited by most callers, as before: the event is on its way when it returns.
 */
export function emit<E extends keyof CoreEvents>(ctx: Emitter, event: E, payload: CoreEvents[E], opts?: unknown): Promise<void> {
  return Promise.resolve(ctx.emit(event, payload, opts)).then(() => undefined);
}

/** `broadcast` (every node's listeners hear it) checked against CoreEvents. */
export function broadcast<E extends keyof CoreEvents>(ctx: Broadcaster, event: E, payload: CoreEvents[E], opts?: unknown): Promise<void> {
  return Promise.resolve(ctx.broadcast(event, payload, opts)).then(() => undefined);
}

/**
 * A service schema whose handlers, methods, events and lifecycle handlers see `this` as the
 * Moleculer Service plus `Methods` (its own methods and what its mixins add, e.g.
 * TenantDbMethods), instead of `this: any`:
 *
 *   interface UsersMethods extends TenantDbMethods<User> { checkQueues(...): Promise<void> }
 *   return defineService<UsersMethods>({ name: "users", actions: { ... }, methods: { ... } });
 *
 * The methods object is checked against `Methods`. The answer is a plain ServiceSchema for
 * `broker.createService`.
 */
export function defineService<Methods extends object = object, Settings = ServiceSettingSchema>(
  // Vars `object`: Moleculer's default (Record<string, any>) would let `this.anything` through.
  schema: Omit<ServiceSchema<Settings, Methods, object>, "methods"> & { methods?: Partial<Methods> & ThisType<Service<Settings> & Methods> },
): ServiceSchema {
  return schema as unknown as ServiceSchema;
}

/** Whether some node runs the service `name` (Moleculer's typings ask for a node id the registry does not need). */
export function serviceRunning(broker: { registry: { hasService(name: string, nodeID: string): boolean } }, name: string): boolean {
  return broker.registry.hasService(name, undefined as unknown as string);
}
