import { Router } from "../../../src/simulator/router.ts";
import type { SimClient } from "../harness.ts";
import { checkRepresentation, newSeen, type Rules, type Seen } from "./checker.ts";
import { allViews, type Facts, resourceOfMediaType, routeIndex, routeKey, splitMediaType } from "./facts.ts";

/**
 * Walks the simulator from entry points along every link of every view, as a client following
 * links would, and holds each GET route it reaches to the reference: every view the real route
 * accepts answers 200 with the real media type and shape, and every other view is a 400.
 */

export interface WalkOptions {
  client: SimClient;
  facts: Facts;
  rules: Rules;
  /** The GET route templates the simulator registers (to name the route of an href). */
  templates: string[];
  entryPoints: string[];
  /** Templates a recorded real answer shows answering an empty 200 when no view is asked. */
  emptyWithoutView?: string[];
}

export interface WalkReport {
  problems: string[];
  /** Templates of the GET routes reached. */
  visited: Set<string>;
  seen: Seen;
  /** How many GETs were answered, and how many representations were checked. */
  calls: number;
  checked: number;
}

interface Link {
  rel: string;
  href: string;
}

const withView = (href: string, view: string) => `${href}${href.includes("?") ? "&" : "?"}view=${view}`;

function linksOf(body: unknown): Link[] {
  const objects = Array.isArray(body) ? body : [body];
  return objects.flatMap((o) =>
    o !== null && typeof o === "object" && Array.isArray((o as { links?: unknown }).links)
      ? (o as { links: Link[] }).links
      : [],
  );
}

export async function walk(options: WalkOptions): Promise<WalkReport> {
  const { client, facts, rules } = options;
  const router = new Router<string>();
  for (const template of options.templates) router.add("GET", template, template);
  const routes = routeIndex(facts);
  const vocabulary = [...allViews(facts), "not_a_view"];
  const problems = new Set<string>();
  const report: WalkReport = { problems: [], visited: new Set(), seen: newSeen(), calls: 0, checked: 0 };
  const queue = [...options.entryPoints];
  const done = new Set<string>();
  const get = async (href: string) => {
    report.calls += 1;
    return client.get(href);
  };

  while (queue.length > 0) {
    const href = queue.shift()!;
    if (done.has(href)) continue;
    done.add(href);
    const match = router.match("GET", href.split("?")[0]!);
    if (match.kind !== "found") {
      problems.add(`a link leads to ${href}, which no GET route serves`);
      continue;
    }
    const template = match.handler;
    const firstVisit = !report.visited.has(template);
    report.visited.add(template);
    const known = routes.get(routeKey("GET", template));
    const say = (view: string | null, problem: string) =>
      problems.add(`GET ${template}${view === null ? "" : ` view=${view}`}: ${problem}`);

    const plain = await get(href);
    if (plain.status !== 200) {
      // A collection that needs parameters (audit entries, monitoring data) answers 400 bare.
      const needsParameters = Object.values(known?.facts.parameters ?? {}).some(
        (p) => (p as { required?: boolean }).required,
      );
      if (!(plain.status === 400 && needsParameters))
        say(null, `${href} answered ${plain.status} ${plain.text}`);
      continue;
    }
    const mediaType = known?.facts.media_type ?? null;
    const expected = mediaType === null ? null : splitMediaType(mediaType);
    const resource = expected ? resourceOfMediaType(facts, expected.type) : undefined;
    const follow = (answer: typeof plain) => {
      if (!/\+json/.test(answer.headers.get("content-type") ?? "")) return;
      const kept = rules[resource ?? ""]?.keptAsGiven ?? {};
      for (const l of linksOf(answer.json())) if (!(l.rel in kept) && !done.has(l.href)) queue.push(l.href);
    };
    follow(plain);
    if (!known) continue; // beyond the reference: only its links are followed

    // A route without a detailed media type answers bytes (text, a health check): no views.
    if (expected === null) continue;
    if (!resource) {
      const contentType = plain.headers.get("content-type") ?? "";
      if (splitMediaType(contentType).type !== expected.type) {
        say(null, `content type ${contentType}, the reference says ${expected.type}`);
      }
      continue;
    }
    const accepted = known.facts.views.length > 0 ? known.facts.views : ["default"];
    const answers: Array<[view: string, answer: typeof plain]> = [];
    if (!options.emptyWithoutView?.includes(template)) answers.push(["default", plain]);
    else if (plain.text !== "") say(null, `${href} answered a body, the recorded answer is empty`);
    for (const view of accepted) {
      const answer = await get(withView(href, view));
      if (answer.status !== 200) say(view, `${href} answered ${answer.status} ${answer.text}`);
      else answers.push([view, answer]);
      follow(answer);
    }
    if (firstVisit) {
      for (const view of vocabulary.filter((v) => !accepted.includes(v))) {
        const answer = await get(withView(href, view));
        if (answer.status !== 400 || !/\bview\b/.test(answer.text)) {
          say(view, `a view the real route does not accept answered ${answer.status}, not 400 naming view`);
        }
      }
    }

    for (const [view, answer] of answers) {
      const contentType = answer.headers.get("content-type") ?? "";
      const actual = splitMediaType(contentType);
      if (actual.type !== `${expected.type}+json` || actual.collection !== expected.collection) {
        say(view, `content type ${contentType}, the reference says ${known.facts.media_type}`);
        continue;
      }
      const body = answer.json();
      const objects = expected.collection ? (Array.isArray(body) ? body : [null]) : [body];
      for (const object of objects) {
        report.checked += 1;
        for (const p of checkRepresentation(facts, rules, resource, view, object, report.seen)) say(view, p);
      }
    }
  }
  report.problems = [...problems].sort();
  return report;
}
