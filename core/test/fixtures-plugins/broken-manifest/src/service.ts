// Never loaded: the host refuses the manifest before requiring any code.
throw new Error("broken-manifest: the host must not load this file");
