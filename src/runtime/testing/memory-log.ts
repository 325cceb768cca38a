import pino, { type Logger } from "pino";

/** A logger for tests: every line kept, parsed. */
export function memoryLog(level = "debug"): {
  log: Logger;
  lines: Record<string, unknown>[];
  text: string[];
} {
  const lines: Record<string, unknown>[] = [];
  const text: string[] = [];
  const log = pino(
    { level },
    {
      write(line: string) {
        text.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { log, lines, text };
}
