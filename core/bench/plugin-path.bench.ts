/**
 * `npm run bench:plugin-path [-- --runs 1]`: how long a third party's channel plugin takes from
 * nothing to enabled for a tenant, and in how many commands: plugin-sdk create → test → pack →
 * publish (the SDK's real bin) and the platform level's install and allow (the API calls the
 * Marketplace page makes), against a core with installs on (MariaDB, plugin nodes over the
 * loopback TCP transporter). Prints one JSON object.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { benchArg } from "./common";
import { createSuper, createTenant, startCore, uid } from "../test/helpers";
import { createToEnabled, type PathResult } from "../../marketplace/test/publish-path";

async function main() {
  const runs = benchArg("runs", 1);
  const t = await startCore({ env: { PLUGIN_INSTALLS: "true", LOG_LEVEL: "error", NAMESPACE: `bench-path-${uid()}` } });
  const results: PathResult[] = [];
  try {
    const sup = await createSuper(t);
    const tenant = await createTenant(t, { tier: "BASIC" });
    const pub = await t.api.post("/marketplace/publishers", { name: "Bench", email: `bench-${uid()}@pub.test` }, sup);
    if (pub.status !== 201) throw new Error(`publisher: ${pub.status} ${JSON.stringify(pub.body)}`);
    for (let i = 0; i < runs; i++) {
      const parent = fs.mkdtempSync(path.join(os.tmpdir(), "oa-bench-path-"));
      try {
        results.push(await createToEnabled({ id: `channel-bench-${uid().slice(0, 6)}`, parent, url: t.url, api: t.api, superAuth: sup, publisherToken: pub.body.token, tenantId: tenant.tenantId }));
      } finally {
        fs.rmSync(parent, { recursive: true, force: true });
      }
    }
  } finally {
    await t.stop();
  }
  const walls = results.map((r) => r.wallMs).sort((x, y) => x - y);
  const stepNames = results[0]?.steps.map((s) => s.step) ?? [];
  const out = {
    bench: "plugin-path",
    runs,
    commands: results[0]?.commands ?? 0,
    wallMs: { min: walls[0], median: walls[Math.floor(walls.length / 2)], max: walls[walls.length - 1] },
    steps: stepNames.map((step, i) => ({ step, command: results[0].steps[i].command, ms: results.map((r) => r.steps[i].ms) })),
    machine: { cpus: os.cpus().length, load1: Number(os.loadavg()[0].toFixed(2)) },
  };
  console.log(JSON.stringify(out, null, 2));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
