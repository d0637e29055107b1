// Types for start-command.mjs (start-command.test.ts).
export declare function startCommand(script?: string): { env: Record<string, string>; flags: string[] };
