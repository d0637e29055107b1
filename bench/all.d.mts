export function benchSteps(options: string[]): [string, string[]][];
