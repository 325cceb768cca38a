import type { Answer, Endpoint, KubectlRun, Pair, RawRequest } from "./endpoints.ts";
import type { Ledger } from "./ledger.ts";
import { normalise, normaliseOutput, type Placeholders } from "./normalise.ts";

/** Both sides' values of one step. */
export interface Both<T> {
  dev: T;
  real: T;
}

/**
 * Sends the same request to both servers (at once: they share nothing) and holds the answers
 * to each other, normalised; what a case compares is the whole answer unless it picks a part.
 */
export class Differ {
  readonly pair: Pair;
  readonly ledger: Ledger;
  readonly placeholders: Placeholders;

  constructor(pair: Pair, ledger: Ledger, namespace: string) {
    this.pair = pair;
    this.ledger = ledger;
    this.placeholders = { namespace, urls: [pair.dev.url, pair.real.url] };
  }

  get namespace(): string {
    return this.placeholders.namespace;
  }

  /** Runs a step on both servers, comparing nothing. */
  async both<T>(step: (server: Endpoint) => Promise<T>): Promise<Both<T>> {
    const [dev, real] = await Promise.all([step(this.pair.dev), step(this.pair.real)]);
    return { dev, real };
  }

  /** A raw request to both; its answers (or the part `view` picks) must be alike. */
  async http(
    id: string,
    request: RawRequest,
    view: (a: Answer) => unknown = (a) => a,
  ): Promise<Both<Answer>> {
    const answers = await this.both((s) => s.call(request));
    this.alike(id, view(answers.dev), view(answers.real));
    return answers;
  }

  /** The same kubectl command on both; exit code and output must be alike. */
  async kubectl(id: string, args: string[], stdin?: string): Promise<Both<KubectlRun>> {
    const runs = await this.both((s) => s.kubectl(args, stdin));
    const view = (r: KubectlRun) => ({
      code: r.code,
      stdout: normaliseOutput(r.stdout, this.placeholders),
      stderr: normaliseOutput(r.stderr, this.placeholders),
    });
    this.ledger.expectAlike(`kubectl ${id}`, view(runs.dev), view(runs.real));
    return runs;
  }

  /** Holds two values to each other once normalised. */
  alike(id: string, dev: unknown, real: unknown): void {
    this.ledger.expectAlike(id, normalise(dev, this.placeholders), normalise(real, this.placeholders));
  }
}
