import { Errors } from "moleculer";
import { isClientError } from "./firing";

describe("which failures of a send are final for the occurrence", () => {
  it("a refusal of the core for the message's sake is final", () => {
    expect(isClientError({ type: "ERR_CONTACT_NOT_FOUND", code: 404 })).toBe(true);
    expect(isClientError({ type: "ERR_CONNECTION_INACTIVE", code: 409 })).toBe(true);
  });
  it("a core service not there yet (a restart, the plugin host still loading) is retried, though it answers 404", () => {
    expect(isClientError(new Errors.ServiceNotFoundError({ action: "plugins.availability" }))).toBe(false);
    expect(isClientError(new Errors.ServiceNotAvailableError({ action: "plugins.availability" }))).toBe(false);
  });
  it("the core or its channel unreachable is retried", () => {
    expect(isClientError(new Errors.RequestTimeoutError({ action: "platform.messages.sendTo" }))).toBe(false);
    expect(isClientError(new Error("connect ECONNREFUSED"))).toBe(false);
  });
});
