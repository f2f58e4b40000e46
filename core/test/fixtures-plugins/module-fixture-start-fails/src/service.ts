/** A plugin whose service fails in `started` (its database is unreachable). */
import { definePlugin } from "@openatende/plugin-sdk";
import pkg from "../package.json";

export default definePlugin({
  pkgJson: pkg,
  service: {
    actions: { ping: () => "pong" },
    async started() {
      throw new Error("fixture: cannot reach its database");
    },
  },
});
