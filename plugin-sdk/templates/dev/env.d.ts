/** The plugin's src/ui/register.tsx, aliased by `plugin-sdk dev`. */
declare module "@plugin-sdk-dev/register" {
  import type { RegisterFn } from "@openatende/plugin-sdk/ui";
  const register: RegisterFn;
  export default register;
}
