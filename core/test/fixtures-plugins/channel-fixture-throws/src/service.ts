/** A plugin whose service throws while it is created (a provider library that is missing). */
import { definePlugin } from "@openatende/plugin-sdk";
import pkg from "../package.json";

export default definePlugin({
  pkgJson: pkg,
  service: {
    created() {
      throw new Error("fixture: the provider library is missing");
    },
  },
});
