/**
 * Test fixture: a valid marketplace archive of a small, working channel plugin.
 *
 * Its server entry (dist/server/index.js) is hand-written CommonJS that needs nothing but
 * node builtins: it exports the definePlugin() object the core's loader accepts (the
 * PLUGIN_TAG shape of plugin-sdk/src/define-plugin.ts, schema name = id, version = major)
 * and implements the channel contract (connect, disconnect, status, send, test) with an
 * echo-like behaviour:
 * - connect/disconnect remember the connection's status and report it to the core
 *   (channels.status; ignored when no core is there, as on a bare broker);
 * - send of a text answers a provider id `echo-<n>` (the same one again for a repeated
 *   messageId), and keeps the message (action `sent` lists them); with the connection setting
 *   `echo: true` the text also comes back as an inbound message "echo: <text>" from the same
 *   contact (channels.inbound);
 * - other kinds are refused with ERR_CHANNEL_UNSUPPORTED; test answers ok.
 * The channel type is the id without "channel-".
 */
import { ArchiveFile, archiveFileName, packArchive, sha256Hex } from "@openatende/plugin-sdk";

export type FixtureTier = "FREE" | "BASIC" | "PLUS" | "PREMIUM";

export interface PluginArchiveOptions {
  id: string;
  version: string;
  tier?: FixtureTier;
  displayName?: Record<string, string>;
  description?: string;
  changelog?: string;
  withUi?: boolean;
}

/** The package.json of the fixture plugin. */
export function fixturePackageJson(opts: PluginArchiveOptions): Record<string, unknown> {
  const platform: Record<string, unknown> = {
    id: opts.id,
    kind: "channel",
    tier: opts.tier ?? "FREE",
    coreApi: "^1.0.0",
    displayName: opts.displayName ?? { "pt-BR": `Eco ${opts.id}`, en: `Echo ${opts.id}` },
    settingsSchema: { echo: { type: "boolean", optional: true } },
    channel: { capabilities: ["text"] },
  };
  if (opts.withUi) platform.ui = { remoteEntry: "remoteEntry.js", exposes: [] };
  return {
    name: `@fixture/${opts.id}`,
    version: opts.version,
    description: opts.description ?? `Echo channel ${opts.id} (test fixture)`,
    license: "MIT",
    main: "dist/server/index.js",
    platform,
  };
}

/** The plugin's server entry: CommonJS, node builtins only. */
export const FIXTURE_SERVER_JS = `"use strict";
/* Echo channel plugin (marketplace test fixture). Needs nothing but node builtins. */
const pkg = require("../../package.json");

const PLUGIN_TAG = 1;
const major = Number(String(pkg.version).split(".")[0]);
const manifest = Object.assign({ packageName: pkg.name, version: pkg.version }, pkg.platform);
const CAPABILITIES = pkg.platform.channel.capabilities;

const id = { type: "number", integer: true, positive: true, convert: true };
const optionalString = { type: "string", optional: true };
const ref = { tenantId: id, connectionId: id };
const settings = { type: "object" };

function channelError(message, type, code, data) {
  const err = new Error(message);
  err.name = code === 422 ? "ValidationError" : "MoleculerClientError";
  err.type = type;
  err.code = code;
  err.data = data;
  err.retryable = false;
  return err;
}

async function tellCore(ctx, action, params, logger) {
  try {
    return await ctx.call(action, params);
  } catch (err) {
    if (logger) logger.debug(action + " not reached: " + err.message);
    return null;
  }
}

const schema = {
  name: manifest.id,
  version: major,
  metadata: { plugin: { id: manifest.id, version: manifest.version, kind: manifest.kind, coreApi: manifest.coreApi } },
  created() {
    this.statuses = new Map();
    this.echo = new Map();
    this.sentById = new Map();
    this.sentLog = [];
    this.seq = 0;
  },
  actions: {
    connect: {
      params: Object.assign({}, ref, { settings, token: optionalString, publicUrl: optionalString, dataDir: optionalString }),
      async handler(ctx) {
        const { tenantId, connectionId } = ctx.params;
        this.statuses.set(connectionId, "connected");
        this.echo.set(connectionId, !!(ctx.params.settings && ctx.params.settings.echo));
        await tellCore(ctx, "channels.status", { tenantId, connectionId, status: "connected" }, this.logger);
        return { status: "connected" };
      },
    },
    disconnect: {
      params: Object.assign({}, ref),
      async handler(ctx) {
        const { tenantId, connectionId } = ctx.params;
        this.statuses.set(connectionId, "disconnected");
        await tellCore(ctx, "channels.status", { tenantId, connectionId, status: "disconnected" }, this.logger);
        return { status: "disconnected" };
      },
    },
    status: {
      params: Object.assign({}, ref),
      handler(ctx) {
        return { status: this.statuses.get(ctx.params.connectionId) || "disconnected" };
      },
    },
    send: {
      params: Object.assign({}, ref, {
        to: { type: "object", props: { externalId: { type: "string", min: 1 } } },
        message: { type: "object", props: { kind: { type: "string", min: 1 }, body: optionalString } },
        messageId: Object.assign({}, id, { optional: true }),
      }),
      async handler(ctx) {
        const { tenantId, connectionId, to, message, messageId } = ctx.params;
        if (!CAPABILITIES.includes(message.kind)) {
          throw channelError('This channel cannot send "' + message.kind + '" messages', "ERR_CHANNEL_UNSUPPORTED", 400, { kind: message.kind, supported: CAPABILITIES.slice() });
        }
        if (typeof message.body !== "string" || message.body === "") {
          throw channelError("Parameters validation error!", "VALIDATION_ERROR", 422, [{ type: "required", field: "message.body", message: "The 'message.body' field is required for text messages." }]);
        }
        if (messageId && this.sentById.has(messageId)) return this.sentById.get(messageId);
        const result = { providerMessageId: manifest.id + "-echo-" + ++this.seq, timestamp: Date.now() };
        if (messageId) this.sentById.set(messageId, result);
        this.sentLog.push({ tenantId, connectionId, to: to.externalId, body: message.body, providerMessageId: result.providerMessageId });
        if (this.echo.get(connectionId)) {
          const inbound = {
            tenantId,
            connectionId,
            providerMessageId: result.providerMessageId + "-reply",
            timestamp: result.timestamp + 1,
            from: { externalId: to.externalId },
            body: "echo: " + message.body,
          };
          setImmediate(() => { tellCore(this.broker, "channels.inbound", inbound, this.logger); });
        }
        return result;
      },
    },
    test: {
      params: { tenantId: id, settings },
      handler() {
        return { ok: true, detail: "echo" };
      },
    },
    /** The provider delivers a customer's message (the conformance kit's inbound driver; a redelivery carries the same id). */
    deliver: {
      visibility: "public",
      params: Object.assign({}, ref, { providerMessageId: { type: "string", min: 1 }, from: { type: "string", min: 1 }, body: { type: "string", min: 1 } }),
      async handler(ctx) {
        const { tenantId, connectionId, providerMessageId, from, body } = ctx.params;
        await tellCore(ctx, "channels.inbound", { tenantId, connectionId, providerMessageId, timestamp: Date.now(), from: { externalId: from }, body }, this.logger);
        return { delivered: true };
      },
    },
    /** What was sent, oldest first (tests). */
    sent: {
      visibility: "public",
      params: { connectionId: Object.assign({}, id, { optional: true }) },
      handler(ctx) {
        const c = ctx.params.connectionId;
        return this.sentLog.filter((m) => !c || m.connectionId === c);
      },
    },
  },
};

module.exports = { $$openatendePlugin: PLUGIN_TAG, id: manifest.id, version: manifest.version, major, manifest, schema };
`;

/** A tiny UI remote entry: enough for the catalogue (not a real Module Federation remote). */
export const FIXTURE_REMOTE_ENTRY_JS = `/* fixture remote entry */
var fixtureRemote = { get: function () { return Promise.reject(new Error("fixture remote exposes nothing")); }, init: function () {} };
`;

/** The files of the fixture plugin's archive (tests may change them to craft bad archives). */
export function pluginArchiveFiles(opts: PluginArchiveOptions): ArchiveFile[] {
  const files: ArchiveFile[] = [
    { path: "package.json", data: Buffer.from(JSON.stringify(fixturePackageJson(opts), null, 2) + "\n") },
    { path: "README.md", data: Buffer.from(`# ${opts.id}\n\nAn echo channel: what is sent comes back. Test fixture of the marketplace.\n`) },
    { path: "CHANGELOG.md", data: Buffer.from(opts.changelog ?? `## ${opts.version}\n\n- ${opts.id} ${opts.version}.\n`) },
    { path: "dist/server/index.js", data: Buffer.from(FIXTURE_SERVER_JS) },
  ];
  if (opts.withUi) files.push({ path: "dist/ui/remoteEntry.js", data: Buffer.from(FIXTURE_REMOTE_ENTRY_JS) });
  return files;
}

/** A valid archive of the echo channel plugin, its SHA-256 and its file name (`<id>-<version>.tgz`). */
export function makePluginArchive(opts: PluginArchiveOptions): { archive: Buffer; checksum: string; fileName: string } {
  const archive = packArchive(pluginArchiveFiles(opts));
  return { archive, checksum: sha256Hex(archive), fileName: archiveFileName(opts.id, opts.version) };
}
