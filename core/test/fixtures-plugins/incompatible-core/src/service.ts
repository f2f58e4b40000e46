// Never loaded: the host refuses the coreApi range before requiring any code.
throw new Error("incompatible-core: the host must not load this file");
