/** Installs wrk (Debian's package) when it is missing; returns its version. */
export function ensureWrk(): string;
