/**
 * The pages whose commands run against the playground (`commands.test.ts`) and whose sample
 * outputs are the playground's (`hrefs.test.ts`); with `sections`, only those level-2 sections.
 */
export const PAGES: { file: string; sections?: string[] }[] = [
  // README beyond these starts servers of its own (simulator, devcluster) or needs a cluster.
  { file: "README.md", sections: ["Quickstart", "Status and conditions"] },
  { file: "docs/dev.md" },
  { file: "docs/troubleshooting.md" },
];
