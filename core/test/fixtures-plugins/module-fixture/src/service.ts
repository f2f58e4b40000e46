/** A good non-channel plugin (default entry src/service.ts, CommonJS-style export). */
import { definePlugin } from "@openatende/plugin-sdk";
import pkg from "../package.json";

module.exports = definePlugin({ pkgJson: pkg, service: { actions: { ping: () => "pong" } } });
