/**
 * The path a third party's channel plugin takes from nothing to enabled for a tenant, run the
 * way people run it: the SDK's command line (the real bin, as child processes) for
 * create → test → pack → publish, then the platform level's two calls, install and allow for
 * one tenant. Each step is timed; the end-to-end test and `npm run bench:plugin-path` share it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { runCli, type CliRun } from "../../plugin-sdk/src/cli/testing";
import type { ApiClient, Auth } from "@openatende/core/testkit";

export interface PathStep {
  step: string;
  /** What a person types or clicks for it. */
  command: string;
  ms: number;
}

export interface PathResult {
  id: string;
  type: string;
  folder: string;
  archive: string;
  checksum: string;
  steps: PathStep[];
  /** Commands from nothing to enabled for the tenant. */
  commands: number;
  wallMs: number;
}

export interface PathOptions {
  /** Plugin id to create (kebab-case, e.g. channel-acme-sms). */
  id: string;
  /** Parent folder the plugin is created in. */
  parent: string;
  /** The platform (marketplace and installs) under test. */
  url: string;
  api: ApiClient;
  superAuth: Auth;
  publisherToken: string;
  tenantId: number;
  /** Each CLI run's output goes here (a failing step shows it). */
  onOutput?(step: string, run: CliRun): void;
  /** The kind to scaffold (default channel). */
  kind?: "channel" | "module";
  /** Changes the author makes to the scaffold before testing it. */
  edit?(folder: string): void;
}

function must(step: string, run: CliRun): CliRun {
  if (run.code !== 0) throw new Error(`plugin-sdk ${step} exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  return run;
}

export async function createToEnabled(o: PathOptions): Promise<PathResult> {
  const steps: PathStep[] = [];
  const started = Date.now();
  const timed = async <T>(step: string, command: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const v = await fn();
    steps.push({ step, command, ms: Date.now() - t0 });
    return v;
  };
  const cli = async (step: string, args: string[]) => {
    const run = await runCli(args, { cwd: o.parent, timeoutMs: 300_000 });
    o.onOutput?.(step, run);
    return must(step, run);
  };
  const folder = path.join(o.parent, o.id);

  const kind = o.kind ?? "channel";
  await timed("create", `plugin-sdk create ${o.id} --kind ${kind}`, () => cli("create", ["create", o.id, "--kind", kind, "--dir", o.parent, ...(kind === "module" ? ["--tier", "PLUS"] : [])]));
  o.edit?.(folder);
  await timed("test", `plugin-sdk test ${o.id}`, () => cli("test", ["test", folder]));
  const packed = await timed("pack", `plugin-sdk pack ${o.id}`, () => cli("pack", ["pack", folder, "--json"]));
  const line = packed.stdout.trim().split("\n").filter((l) => l.startsWith("{")).pop();
  if (!line) throw new Error(`pack printed no JSON line:\n${packed.stdout}`);
  const info = JSON.parse(line) as { archive?: string; path?: string; file?: string; checksum: string };
  const archive = info.archive ?? info.path ?? info.file;
  if (!archive || !fs.existsSync(archive)) throw new Error(`pack's archive not found: ${line}`);
  await timed("publish", `plugin-sdk publish ${path.basename(archive)} --registry <url> --token <token>`, () =>
    cli("publish", ["publish", archive, "--registry", o.url, "--token", o.publisherToken]),
  );
  const version = (JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8")) as { version: string }).version;
  await timed("install", `POST /api/plugins/installed {id, version} (Marketplace → Instalar)`, async () => {
    const r = await o.api.post("/plugins/installed", { id: o.id, version }, o.superAuth);
    if (r.status !== 200) throw new Error(`install answered ${r.status}: ${JSON.stringify(r.body)}`);
  });
  await timed("enable for the tenant", `PUT /api/plugins/${o.id}/tenants/<tenant> {allowed: true} (Marketplace → Empresas → Liberado)`, async () => {
    const r = await o.api.put(`/plugins/${o.id}/tenants/${o.tenantId}`, { allowed: true }, o.superAuth);
    if (r.status !== 200) throw new Error(`allow answered ${r.status}: ${JSON.stringify(r.body)}`);
  });
  return {
    id: o.id,
    type: o.id.replace(/^channel-/, ""),
    folder,
    archive,
    checksum: info.checksum,
    steps,
    commands: steps.length,
    wallMs: Date.now() - started,
  };
}
