import * as fs from "node:fs";
import * as path from "node:path";
import { randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import type { AppConfig } from "@openatende/config";
import { generateLicenceKeys, signLicence } from "./licence/token";
import { call } from "./bus/call";

export const DEMO = {
  tenantName: "Demo",
  admin: "admin@demo.com",
  super: "super@demo.com",
  supervisor: "supervisor@demo.com",
  agent: "agent@demo.com",
  /** Used when SEED_ADMIN_PASSWORD is not set; printed with a warning. */
  defaultPassword: "Admin1234",
  document: "11222333000181",
};

export interface SeedResult {
  created: boolean;
  tenantId?: number;
  password?: string;
  usedDefaultPassword?: boolean;
}

/**
 * First-run demo data: the Demo tenant with an admin, a supervisor, an agent and two queues,
 * and a platform (super) user. Runs only on an empty database.
 * In embedded mode without a configured licence key, it also makes a local key pair and a
 * PREMIUM licence for the demo tenant, so the demo shows every module.
 */
export async function seedIfEmpty(broker: ServiceBroker, config: AppConfig): Promise<SeedResult> {
  const count = await call(broker, "tenants.count", {});
  if (count > 0) return { created: false };
  const password = config.seedAdminPassword ?? DEMO.defaultPassword;
  const tenant = await call(broker, "tenants.createInternal", { name: DEMO.tenantName, document: DEMO.document });
  const q1 = await call(broker, "queues.createInternal", { tenantId: tenant.id, name: "Atendimento" });
  const q2 = await call(broker, "queues.createInternal", { tenantId: tenant.id, name: "Financeiro" });
  const mk = (name: string, email: string, profile: "admin" | "super" | "supervisor" | "user", queues: number[], isMaster = false) =>
    call(broker, "users.createInternal", { tenantId: tenant.id, name, email, password, profile, queues, isMaster });
  await mk("Administrador", DEMO.admin, "admin", [q1.id, q2.id]);
  await mk("Plataforma", DEMO.super, "super", [], true);
  await mk("Supervisora", DEMO.supervisor, "supervisor", [q1.id, q2.id]);
  await mk("Agente", DEMO.agent, "user", [q1.id]);

  if (config.mode === "embedded" && !config.licencePublicKey) {
    const dir = path.join(config.dataDir, "licence");
    fs.mkdirSync(dir, { recursive: true });
    const pubFile = path.join(dir, "public.pem");
    const privFile = path.join(dir, "private.pem");
    if (!fs.existsSync(pubFile)) {
      const keys = generateLicenceKeys();
      fs.writeFileSync(pubFile, keys.publicKeyPem);
      fs.writeFileSync(privFile, keys.privateKeyPem, { mode: 0o600 });
    }
    const token = signLicence(
      {
        lid: `demo-${randomUUID()}`,
        tier: "PREMIUM",
        issuedAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 365 * 86400_000).toISOString(),
        domain: config.licenceDomain ?? new URL(config.publicUrl).hostname,
        document: DEMO.document,
        tenantId: tenant.id,
        issuer: "openatende-demo-seed",
      },
      fs.readFileSync(privFile, "utf8"),
    );
    await call(broker, "tenants.setLicenseToken", { id: tenant.id, token });
  }
  return { created: true, tenantId: tenant.id, password, usedDefaultPassword: !config.seedAdminPassword };
}
