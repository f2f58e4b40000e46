/** The fixture plugin's server entry, unpacked from its archive, passes the SDK's channel conformance kit. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DefinedPlugin, findDefinedPlugin, readArchive, runChannelConformance } from "@openatende/plugin-sdk";
import { makePluginArchive } from "./fixtures";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "oa-mkp-conformance-"));
for (const f of readArchive(makePluginArchive({ id: "channel-conformecho", version: "1.0.0", withUi: true }).archive, { maxBytes: 1024 * 1024 })) {
  fs.mkdirSync(path.dirname(path.join(folder, f.path)), { recursive: true });
  fs.writeFileSync(path.join(folder, f.path), f.data);
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const plugin = findDefinedPlugin(require(path.join(folder, "dist/server/index.js"))) as DefinedPlugin;

afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

runChannelConformance({
  plugin,
  settings: { echo: false },
  driver: {
    // The provider hands over a customer's message; the same key again is its redelivery.
    async triggerInbound(broker, ref, key) {
      await broker.call(`v${plugin.major}.${plugin.id}.deliver`, { ...ref, providerMessageId: key, from: "5511988887777", body: `hello ${key}` });
    },
  },
});
