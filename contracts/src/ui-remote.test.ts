import { containerName } from "./ui-remote";

describe("a plugin UI remote's container name", () => {
  it("is the plugin id as an identifier, prefixed so no id can clash with the shell's own", () => {
    expect(containerName("channel-telegram")).toBe("plugin_channel_telegram");
    expect(containerName("acme.voice-2")).toBe("plugin_acme_voice_2");
    expect(containerName("plain")).toBe("plugin_plain");
  });
});
