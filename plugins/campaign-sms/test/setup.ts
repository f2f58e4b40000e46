/**
 * What the SMS campaign tests share: a core on MariaDB whose plugin host loads the bundled
 * plugins (campaign-sms and channel-sms among them) and may reach the local Comtele of the SMS
 * channel's tests (plugins/channel-sms/test/fake-comtele.ts, reused as it is), tenants allowed
 * both plugins, and contacts with numbers.
 */
import { createSuper, startCore, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { LOOPBACK_FAKES } from "../../channel-sms/test/helpers";

export const ROUTE = "/campanhasms";

export async function waitFor<T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A core with the bundled plugins (on the store of `reuse`: a restart), its routes published. */
export async function startSmsCampaignCore(reuse?: TestCore["store"]): Promise<TestCore> {
  const t = await startCore({ env: LOOPBACK_FAKES, reuse });
  await t.core.broker.waitForServices(["plugins", "platform", "v1.campaign-sms", "v1.channel-sms"], 60_000);
  await waitFor(
    "the gateway's routes",
    () => t.core.broker.call("api.listAliases") as Promise<Array<{ actionName: string }>>,
    (aliases) => ["plugins.setAllowed", "connections.create", "v1.campaign-sms.list"].every((n) => aliases.some((a) => a.actionName === n)),
  );
  return t;
}

export async function allow(t: TestCore, sup: Auth, tenantId: number): Promise<void> {
  for (const id of ["campaign-sms", "channel-sms"]) {
    const r = await t.api.put(`/plugins/${id}/tenants/${tenantId}`, { allowed: true }, sup);
    if (r.status !== 200) throw new Error(`allow ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** A contact of the tenant with this number. */
export async function contact(t: TestCore, f: TenantFixture, name: string, number: string): Promise<number> {
  const r = await t.api.post("/contacts", { name, number }, f.admin);
  if (r.status !== 200 && r.status !== 201) throw new Error(`contact: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

/** A Brazilian mobile number no other test uses. */
export const mobile = () => `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

export { createSuper };
