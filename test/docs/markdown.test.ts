import { describe, expect, it } from "vitest";
import { shellBlocks, splitCommands } from "./markdown.ts";
import { missingLines, wordPattern } from "./output.ts";

const FENCE = "```";
const page = (...lines: string[]) => lines.join("\n");

describe("shell commands of a markdown page", () => {
  it("one command per line; comments skipped; `\\`, `|` and heredocs continue it", () => {
    const body = [
      "# a comment",
      "kubectl get svccloud -n demo   # trailing comment",
      "kubectl get x \\",
      "  -n demo",
      "kubectl get y |",
      "  grep z",
      "kubectl apply -f - <<'EOF'",
      "kind: Subnet",
      "# not a comment: part of the heredoc",
      "EOF",
      "",
      "echo done",
    ];
    expect(splitCommands(body, 10)).toEqual([
      { line: 11, text: "kubectl get svccloud -n demo   # trailing comment" },
      { line: 12, text: "kubectl get x \\\n  -n demo" },
      { line: 14, text: "kubectl get y |\n  grep z" },
      {
        line: 16,
        text: "kubectl apply -f - <<'EOF'\nkind: Subnet\n# not a comment: part of the heredoc\nEOF",
      },
      { line: 21, text: "echo done" },
    ]);
  });

  it("reads marks from the info string, and the ```text block right after as the output", () => {
    const blocks = shellBlocks(
      "x.md",
      page(
        `${FENCE}sh real-cluster`,
        "kubectl logs deploy/x",
        FENCE,
        "",
        `${FENCE}sh`,
        "kubectl get a",
        FENCE,
        "",
        `${FENCE}text`,
        "NAME READY",
        FENCE,
        `${FENCE}bash fails`,
        "kubectl patch b",
        FENCE,
        "Prose between: the next block is an illustration of nothing.",
        `${FENCE}text`,
        "ignored",
        FENCE,
        `${FENCE}yaml`,
        "kind: NotAShellBlock",
        FENCE,
      ),
    );
    expect(blocks.map((b) => [b.line, [...b.marks], b.commands.map((c) => c.text), b.output?.text])).toEqual([
      [1, ["real-cluster"], ["kubectl logs deploy/x"], undefined],
      [5, [], ["kubectl get a"], "NAME READY"],
      [12, ["fails"], ["kubectl patch b"], undefined],
    ]);
  });

  it("refuses an unknown mark, so a typo cannot hide a command", () => {
    expect(() => shellBlocks("x.md", page(`${FENCE}sh real-clutser`, "kubectl get a", FENCE))).toThrow(
      /x\.md:1: unknown mark "real-clutser"/,
    );
  });

  it("keeps only the named sections, and fails on a section that is not there", () => {
    const md = page(
      "## One",
      `${FENCE}sh`,
      "echo one",
      FENCE,
      "## Two",
      "### Sub",
      `${FENCE}sh`,
      "echo two",
      FENCE,
    );
    expect(shellBlocks("x.md", md, ["Two"]).map((b) => b.commands[0]!.text)).toEqual(["echo two"]);
    expect(() => shellBlocks("x.md", md, ["Three"])).toThrow(/no section "## Three"/);
  });
});

describe("documented output, matched loosely", () => {
  const printed = [
    "NAME                         READY   SYNCED   CIDR           STATE       HREF                      AGE",
    "subnet.cloud.svc.io/main-a   True    True     10.10.1.0/24   available   /api/clouds/1/subnets/1   5s",
    "subnet.cloud.svc.io/main-b   False   True     10.10.2.0/24   pending     /api/clouds/1/subnets/12  1m3s",
  ].join("\n");

  it("ignores padding, numbers' values and `...` lines; allows fragments of a line", () => {
    expect(
      missingLines(
        "NAME READY SYNCED CIDR STATE HREF AGE\n...\nsubnet.cloud.svc.io/main-b   False   True   10.10.9.0/24",
        printed,
      ),
    ).toEqual([]);
  });

  it("reports the first documented line that is not there, and requires the order", () => {
    expect(missingLines("subnet.cloud.svc.io/main-a True True", printed)).toEqual([]);
    expect(missingLines("subnet.cloud.svc.io/main-b True True", printed)).toEqual([
      "subnet.cloud.svc.io/main-b True True",
    ]);
    expect(missingLines("subnet.cloud.svc.io/main-b\nsubnet.cloud.svc.io/main-a", printed)).toEqual([
      "subnet.cloud.svc.io/main-a",
    ]);
  });

  it("numbers match numbers, placeholders match any text within a word", () => {
    expect(wordPattern("/api/deployments/3").test("/api/deployments/17")).toBe(true);
    expect(wordPattern("/api/deployments/3").test("/api/deployments/-")).toBe(false);
    expect(wordPattern("4.5").test("12.0")).toBe(true);
    expect(
      wordPattern("KUBECONFIG=<checkout>/.svc-operator/kubeconfig").test(
        "KUBECONFIG=/tmp/x/.svc-operator/kubeconfig",
      ),
    ).toBe(true);
    expect(
      wordPattern("KUBECONFIG=<checkout>/.svc-operator/kubeconfig").test(
        "KUBECONFIG=.svc-operator/kubeconfig",
      ),
    ).toBe(false);
  });
});
