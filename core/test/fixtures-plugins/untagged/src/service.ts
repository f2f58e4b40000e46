/** A plain Moleculer schema, not made with definePlugin(): the host refuses it. */
export default { name: "module-untagged", version: 1, actions: { ping: () => "pong" } };
