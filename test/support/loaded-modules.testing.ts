// Preloaded with `node --import` by test/deploy/command-loads.test.ts: writes the file URL of every
// module the process loaded to LOADED_MODULES_FILE when it exits.
import { writeFileSync } from "node:fs";
import { registerHooks } from "node:module";

const loaded = new Set<string>();
registerHooks({
  load(url, context, next) {
    if (url.startsWith("file:")) loaded.add(url);
    return next(url, context);
  },
});
process.on("exit", () =>
  writeFileSync(process.env.LOADED_MODULES_FILE ?? "/dev/null", [...loaded].join("\n")),
);
